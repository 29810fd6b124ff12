/* cmd.h: the octad subcommands; each takes the arguments after its name and returns an exit status. */
#pragma once

int cmd_perft(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_certify(int argc, char **argv);
int cmd_pgn(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_svg(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_uci(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_tables(int argc, char **argv);
