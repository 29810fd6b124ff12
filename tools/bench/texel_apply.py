#!/usr/bin/env python3
"""texel_apply.py: puts the tables that bench_texel_tune printed into the
engine's headers, replacing each '#define EVAL_CHESS_NAME' block (the macro
and its continuation lines) of core/engine/eval_chess_params.h and
core/engine/eval_chess_pst.h by the block of the same name in the tuner's output.
Everything else in the headers stays as it is.

usage: texel_apply.py TUNER_OUTPUT ENGINE_DIR
Exit status 1 when a block of the output has no place in the headers or a
header block is missing from the output (nothing is written then)."""
import re
import sys

HEADERS = ("eval_chess_params.h", "eval_chess_pst.h")
BLOCK = re.compile(r"^#define (EVAL_CHESS_[A-Z_]+)\b.*?(?<!\\)\n", re.M | re.S)


TABLES = ("EVAL_CHESS_PARAMS", "EVAL_CHESS_MOBILITY", "EVAL_CHESS_KING_DANGER", "EVAL_CHESS_PST")


def blocks(text):
    """The tuned '#define' blocks of text, by name: (start, end, text)."""
    return {m.group(1): (m.start(), m.end(), m.group(0)) for m in BLOCK.finditer(text) if m.group(1) in TABLES}


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        tuned = blocks(f.read() + "\n")
    texts, placed = {}, set()
    for name in HEADERS:
        path = f"{argv[2]}/{name}"
        with open(path) as f:
            text = f.read()
        # Replace from the last block back, so earlier offsets stay valid.
        for macro, (start, end, _) in sorted(blocks(text).items(), key=lambda kv: -kv[1][0]):
            if macro not in tuned:
                print(f"texel_apply: {argv[1]}: no block {macro}", file=sys.stderr)
                return 1
            text = text[:start] + tuned[macro][2].rstrip("\n") + "\n" + text[end:]
            placed.add(macro)
        texts[path] = text
    extra = set(tuned) - placed
    if extra:
        print(f"texel_apply: {argv[1]}: blocks with no place in the headers: {', '.join(sorted(extra))}", file=sys.stderr)
        return 1
    for path, text in texts.items():
        with open(path, "w") as f:
            f.write(text)
    print(f"texel_apply: replaced {', '.join(sorted(placed))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
