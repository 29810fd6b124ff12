#!/usr/bin/env node
// perft_stats_oracle.mjs: counts the leaves of a chess or Chess960 position's legal-move tree by
// kind with chessops (an independent rules library from npm, not ours), in the names and by the
// definitions of `octad perft --stats` (docs/perft-stats.md): a second opinion for Chess960,
// where no published table has these columns.
// usage: node perft_stats_oracle.mjs NODE_MODULES_DIR DEPTH FEN
// Prints one "name value" line per count; exit status 0, or 2 on bad usage or a bad FEN.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, depthText, fen] = process.argv.slice(2);
const depth = Number(depthText);
if (!dir || !fen || !Number.isInteger(depth) || depth < 1 || depth > 6) {
  console.error('usage: perft_stats_oracle.mjs NODE_MODULES_DIR DEPTH(1-6) FEN');
  process.exit(2);
}
// chessops' ES modules by path (its CommonJS build does not load, and NODE_PATH does not reach imports).
const load = (name) => import(pathToFileURL(join(dir, 'chessops', 'dist', 'esm', name + '.js')).href);
const { Chess } = await load('chess');
const { parseFen } = await load('fen');

const setup = parseFen(fen);
if (setup.isErr) { console.error(`perft_stats_oracle: FEN '${fen}': ${setup.error.message}`); process.exit(2); }
const root = Chess.fromSetup(setup.value);
if (root.isErr) { console.error(`perft_stats_oracle: FEN '${fen}': ${root.error.message}`); process.exit(2); }

const names = ['nodes', 'captures', 'ep', 'castles', 'promotions', 'checks', 'checks-gct',
               'disc-checks', 'dbl-checks', 'mates', 'stalemates'];
const count = Object.fromEntries(names.map((n) => [n, 0]));

const same = (a, b) => (a === b) || (a && b && a.role === b.role && a.color === b.color);

// Every legal move of pos: chessops gives a castle as the king onto its own rook.
function* moves(pos) {
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const rank = to >> 3;
      if (piece.role === 'pawn' && (rank === 0 || rank === 7))
        for (const promotion of ['knight', 'bishop', 'rook', 'queen']) yield { from, to, promotion };
      else yield { from, to };
    }
  }
}

// Counts one last-ply move of pos by kind.
function leaf(pos, move) {
  const mover = pos.turn;
  const piece = pos.board.get(move.from);
  const target = pos.board.get(move.to);
  const castle = piece.role === 'king' && target && target.color === mover;
  const ep = piece.role === 'pawn' && !target && (move.to & 7) !== (move.from & 7);
  const child = pos.clone();
  child.play(move);
  count.nodes++;
  if (castle) count.castles++;
  if (ep) count.ep++;
  if ((target && !castle) || ep) count.captures++;
  if (move.promotion) count.promotions++;
  const ctx = child.ctx();
  if (ctx.checkers.nonEmpty()) {
    count.checks++;
    // The moved men: the mover's men on squares whose content the move changed.
    let discovered = true;
    for (const sq of ctx.checkers)
      if (!same(pos.board.get(sq), child.board.get(sq))) discovered = false;
    if (discovered) count['disc-checks']++;
    if (ctx.checkers.size() >= 2) count['dbl-checks']++;
    if (child.isCheckmate(ctx)) count.mates++;
    else count['checks-gct']++;
  } else if (child.isStalemate(ctx)) {
    count.stalemates++;
  }
}

function walk(pos, d) {
  for (const move of moves(pos)) {
    if (d === 1) { leaf(pos, move); continue; }
    const child = pos.clone();
    child.play(move);
    walk(child, d - 1);
  }
}

walk(root.value, depth);
for (const n of names) console.log(`${n} ${count[n]}`);
