#!/usr/bin/env node
// chess960_oracle.mjs: replays every game of a Chess960 PGN file with chessops (an
// independent rules library from npm, not ours) and checks that each move is legal,
// that the game ends where its Termination tag says and by that rule, and that the
// result agrees. Counts the castles by colour and wing.
// usage: node tools/oracles/chess960_oracle.mjs GAMES.pgn NODE_MODULES_DIR (the folder holding chessops)
// Prints one JSON summary line; exit status 0 if every game replays, 1 otherwise.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

if (process.argv.length < 4) { console.error('usage: chess960_oracle.mjs GAMES.pgn NODE_MODULES_DIR'); process.exit(2); }
// chessops' ES modules by path (its CommonJS build does not load, and NODE_PATH does not reach imports).
const load = (name) => import(pathToFileURL(join(process.argv[3], 'chessops', 'dist', 'esm', name + '.js')).href);
const { parsePgn, startingPosition } = await load('pgn');
const { parseSan } = await load('san');
const { castlingSide } = await load('chess');
const { makeFen } = await load('fen');

// The position for repetitions: placement, side, castling and e.p. (no clocks).
function repetitionKey(pos) {
  return makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
}

// Checks one game; returns a list of problems (empty when it replays), and counts castles.
function checkGame(game, number, castles) {
  const problems = [];
  const start = startingPosition(game.headers);
  if (start.isErr) return [`game ${number}: start position: ${start.error.message}`];
  const pos = start.value;
  const seen = new Map([[repetitionKey(pos), 1]]);
  let ply = 0, maxRepeat = 1;
  for (const node of game.moves.mainline()) {
    ply++;
    if (maxRepeat >= 5) problems.push(`game ${number}: ply ${ply} played after a fivefold repetition`);
    const move = parseSan(pos, node.san);
    if (!move) {
      problems.push(`game ${number}: ply ${ply} '${node.san}' is not legal in ${makeFen(pos.toSetup())}`);
      return problems;
    }
    const side = castlingSide(pos, move);
    if (side) castles[pos.turn][side]++;
    pos.play(move);
    const key = repetitionKey(pos);
    const n = (seen.get(key) || 0) + 1;
    seen.set(key, n);
    maxRepeat = n;
  }
  const term = game.headers.get('Termination') || '';
  const result = game.headers.get('Result') || '*';
  const winner = result === '1-0' ? 'white' : result === '0-1' ? 'black' : null;
  const ends = {
    'checkmate': () => pos.isCheckmate() && winner !== null && winner !== pos.turn,
    'stalemate': () => pos.isStalemate() && result === '1/2-1/2',
    'insufficient material': () => pos.isInsufficientMaterial() && result === '1/2-1/2',
    'fivefold repetition': () => maxRepeat >= 5 && result === '1/2-1/2',
    '75-move rule': () => pos.halfmoves >= 150 && result === '1/2-1/2',
  };
  if (!(term in ends)) problems.push(`game ${number}: termination '${term}' is not a rule's end`);
  else if (!ends[term]()) problems.push(`game ${number}: '${term}' ${result} does not hold after ${ply} plies`);
  return problems;
}

const file = process.argv[2];
const games = parsePgn(readFileSync(file, 'utf8'));
const castles = { white: { a: 0, h: 0 }, black: { a: 0, h: 0 } };
const problems = [];
let plies = 0;
games.forEach((g, i) => {
  if (g.headers.get('Variant') !== 'Chess960') problems.push(`game ${i + 1}: not a Chess960 game`);
  problems.push(...checkGame(g, i + 1, castles));
  plies += [...g.moves.mainline()].length;
});
console.log(JSON.stringify({ games: games.length, plies, castles, problems: problems.length }));
for (const p of problems.slice(0, 20)) console.log('problem: ' + p);
process.exit(problems.length ? 1 : 0);
