/* opt.h: the one command-line option parser of octad, coordinator and worker; each option is a table row. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What an option's value is, and how it is stored at the row's field. */
typedef enum {
    OPT_FLAG,   /* no value; the field is a bool, set true */
    OPT_INT,    /* a decimal integer in [lo, hi]; the field is an integer of `size` bytes (1, 2, 4 or 8) */
    OPT_DOUBLE, /* a decimal number in [dlo, dhi]; the field is a double */
    OPT_STRING, /* any text, empty too; the field is a const char * borrowing argv */
    OPT_TEXT,   /* non-empty text (a file, a directory, a name); a const char * borrowing argv */
    OPT_GB,     /* decimal gigabytes in (0, 1000000], e.g. 11.5; the field is a uint64_t of bytes */
    OPT_CUSTOM, /* row.parse(text, field, err, errlen) reads it */
} opt_kind_t;

/* One option. `off`/`size` place its field in the caller's struct (OPT_AT below).
 * Custom parsers return 0, or -1 with the problem in err (the parser adds the option's name). */
typedef struct {
    const char *name;  /* "--threads" */
    char short_name;   /* 't' for -t, or 0 ('h' is --help's) */
    opt_kind_t kind;
    const char *arg;   /* the value's name in the help ("N", "FILE"); NULL for a flag */
    size_t off, size;  /* the field: offset and size in the struct given to opt_parse */
    const char *help;  /* what it does; each '\n' starts a continuation line under it */
    long long lo, hi;  /* OPT_INT: the range */
    double dlo, dhi;   /* OPT_DOUBLE: the range */
    int (*parse)(const char *text, void *field, char *err, size_t errlen); /* OPT_CUSTOM */
    const char *alias; /* another spelling ("--fen" beside "--ofen"), or NULL */
} opt_t;

/* The field of a row: OPT_AT(worker_opts_t, threads). */
#define OPT_AT(type, field) .off = offsetof(type, field), .size = sizeof(((type *)0)->field)

/* A program's (or subcommand's) options. */
typedef struct {
    const char *prog;     /* "worker", "octad perft": every message starts "PROG: " */
    const char *usage;    /* the help before the options: usage lines and what it does */
    const char *epilogue; /* the help after the options (notes, exit status), or NULL */
    const opt_t *rows;
    size_t row_nb;
    /* An argument that is not an option ("-" is one): 0 taken, or -1 with the problem
     * in err. NULL: the program takes none ("unexpected argument"). */
    int (*plain)(const char *arg, void *base, char *err, size_t errlen);
    /* Rows several commands share (octad's position options), listed first in the help;
     * their fields are at base + shared_off. */
    const opt_t *shared;
    size_t shared_nb, shared_off;
} opt_spec_t;

enum { OPT_HELP = -1 };

/* Reads argv[0..argc) into the struct at base: --name VALUE, --name=VALUE, -s VALUE,
 * -sVALUE; --help or -h prints the help on stdout and returns OPT_HELP. Rows not given
 * leave their fields as they were (set the defaults first). Returns 0, OPT_HELP, or
 * EXIT_USAGE after one line on stderr: "PROG: --threads: expected an integer in
 * 1..1024, got 'x' (see PROG --help)", "PROG: unknown option '--x' (see ...)",
 * "PROG: --threads needs a value (see ...)". The parser itself never exits. */
int opt_parse(const opt_spec_t *spec, int argc, char **argv, void *base);

/* Prints spec's help: usage, one line per row ("  --name ARG, -s  help", the help's
 * further lines aligned under it), --help, and the epilogue. */
void opt_help(const opt_spec_t *spec, FILE *out);

/* Prints "PROG: MESSAGE (see PROG --help)" on stderr and returns EXIT_USAGE: for the
 * checks a program makes across options after opt_parse. */
int opt_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads a decimal integer in [lo, hi] (no sign but '-', no spaces). 0, or -1 with
 * "expected an integer in LO..HI, got 'TEXT'" in err. */
int opt_read_int(const char *text, long long lo, long long hi, long long *out, char *err, size_t errlen);

/* Prints "PROG: unknown option 'ARG' (see PROG --help)" and returns EXIT_USAGE. */
int opt_unknown(const char *prog, const char *arg);

/* Whether arg is --help or -h. */
bool opt_is_help(const char *arg);
