/* pgn_game.h: a game as PGN knows it (tags, the record, comments and NAGs),
 * read by replaying a PGN stream and written back as normalised PGN.
 *
 * Replay (pgn_replay) runs the reader (pgn.h) with a visitor that starts each
 * game from its [Variant]/[FEN]/[SetUp] tags, plays every mainline move
 * through the rules (san.h, record.h), and checks variations when asked. A
 * broken game carries its errors, each with game number, line and column; the
 * games after it are read as usual. */
#pragma once

#include <stdio.h>

#include "pgn.h"
#include "record.h"

typedef struct {
    char *name, *value;
} pgn_tag_t;

typedef struct pgn_line pgn_line_t;

enum { PGN_NAGS_MAX = 8 };

/* Annotations after one ply's move (ply 0: before the first move), and the
 * variations that replace that move (none at ply 0). */
typedef struct {
    char *comment;     /* or NULL */
    uint8_t nags[PGN_NAGS_MAX];
    int nag_nb;
    pgn_line_t *vars;  /* alternatives to this ply's move, in the order read */
    int var_nb, var_cap;
} pgn_note_t;

/* A variation: moves played from the position before the move it replaces.
 * notes[0] is before its first move, notes[k] after moves[k-1] (move_nb + 1
 * notes; their vars nest further variations). */
struct pgn_line {
    gmove_t *moves;
    pgn_note_t *notes;
    int move_nb, cap;
};

enum { PGN_ERRORS_KEPT = 8, PGN_ERROR_MAX = 200 };

typedef struct {
    long number, line;  /* game number in the stream (from 1), line of its first token */
    pgn_tag_t *tags;
    int tag_nb, tag_cap;
    record_t rec;       /* valid when has_record */
    bool has_record;
    pgn_note_t *notes;  /* note_cap entries, index = ply */
    int note_cap;
    result_t result_token; /* the movetext's result (RESULT_NONE for "*" or none) */
    int error_nb;       /* errors found; the first PGN_ERRORS_KEPT are kept */
    int variation_error_nb; /* those of them in variations (the mainline and tags are fine when
                             * error_nb == variation_error_nb; a bad variation is cut there) */
    char errors[PGN_ERRORS_KEPT][PGN_ERROR_MAX];
} pgn_game_t;

/* An empty game (no tags, no record). */
void pgn_game_init(pgn_game_t *g);

/* A game around a copy of rec, with the Seven Tag Roster defaults. 0 or -1. */
int pgn_game_from_record(pgn_game_t *g, const record_t *rec);

/* Frees everything the game owns; it may be initialised again. */
void pgn_game_free(pgn_game_t *g);

/* Sets (or replaces) a tag. 0, or -1 out of memory. */
int pgn_game_set_tag(pgn_game_t *g, const char *name, const char *value);

/* A tag's value, or NULL. Names compare exactly. */
const char *pgn_game_tag(const pgn_game_t *g, const char *name);

/* The note of a ply, growing the table; NULL out of memory. */
pgn_note_t *pgn_game_note(pgn_game_t *g, int ply);

/* Frees what a note owns (comment, variations), leaving it empty. */
void pgn_note_free(pgn_note_t *n);

/* Appends text to a note's comment (after a space when it has one). 0, or -1 out of memory. */
int pgn_note_comment(pgn_note_t *n, const char *text);

/* Adds a NAG to a note (0..255; those past PGN_NAGS_MAX are dropped). */
void pgn_note_nag(pgn_note_t *n, int nag);

/* A new empty variation after the note's others; NULL out of memory. The
 * pointer stays valid until another variation is added to the same note. */
pgn_line_t *pgn_note_add_variation(pgn_note_t *n);

/* Appends a move to a variation (with an empty note after it). 0, or -1 out of memory. */
int pgn_line_push(pgn_line_t *l, gmove_t m);

/* Variations stored in the game, nested ones included. */
int pgn_game_variation_count(const pgn_game_t *g);

/* Records an error (printf style); the message should start with "game N, line L, column C: ". */
void pgn_game_error(pgn_game_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* How to replay a stream. */
typedef struct {
    variant_t default_variant;  /* for games without a [Variant] tag (normally chess) */
    bool keep_variations;       /* replay variations, keep them in the notes and report their errors
                                 * (else skip them) */
    bool headers_only;          /* read the tags only (no record) */
    void (*on_game)(void *ctx, pgn_game_t *g); /* each game when it ends; g is freed after */
    void *ctx;
} pgn_replay_t;

/* Replays every game of f; returns the number of games or -1 on a read error (errno set). */
long pgn_replay(FILE *f, const pgn_replay_t *opts);

/* The same over a string. */
long pgn_replay_text(const char *text, size_t len, const pgn_replay_t *opts);

/* Reads the variant a [Variant] tag names ("Octad", "Chess960", "Standard", ...). 0 or -1. */
int pgn_variant_parse(const char *tag, variant_t *out);

/* Writes g as PGN: the Seven Tag Roster, then Variant/SetUp/FEN when the start
 * needs them, then Termination when the record says how the game ended, then
 * the other tags; moves in SAN with numbers (N... for Black after a break),
 * NAGs, comments and variations, lines of at most 80 columns, the result, a
 * blank line. 0 or -1. */
int pgn_write(FILE *f, const pgn_game_t *g);

/* The same into a new string (the caller frees it); NULL out of memory. */
char *pgn_write_string(const pgn_game_t *g);
