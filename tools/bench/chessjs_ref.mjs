// chessjs_ref.mjs: the reference for tools/bench/game_bench.sh: chess.js (npm) on the
// same PGN file: reading (loadPgn per game: parse + replay + legality, plies/s)
// and SAN moves (chess.move on each game's SAN list, moves/s), CPU time, median of runs.
// usage: node chessjs_ref.mjs NODE_MODULES FILE.pgn RUNS
import { createRequire } from 'module';
import fs from 'fs';

const require = createRequire(process.argv[2] + '/');
const { Chess } = require('chess.js');
const text = fs.readFileSync(process.argv[3], 'utf8').replace(/^\uFEFF/, '');
const runs = Number(process.argv[4] || 3);
const games = text.split(/\n\s*\n(?=\[)/).filter((g) => g.trim().length > 0);

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const median = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];

// Each game's start and SAN list, once.
const parsed = [];
for (const g of games) {
  const c = new Chess();
  try { c.loadPgn(g); } catch (e) { continue; }
  const h = c.history({ verbose: true });
  parsed.push({ start: h.length ? h[0].before : c.fen(), sans: h.map((m) => m.san), pgn: g });
}
const plies = parsed.reduce((n, g) => n + g.sans.length, 0);
const pgnRate = [], sanRate = [];
for (let r = 0; r < runs; r++) {
  let t = cpu();
  for (const g of parsed) new Chess().loadPgn(g.pgn);
  pgnRate.push(plies / (cpu() - t));
  t = cpu();
  for (const g of parsed) {
    const c = new Chess(g.start);
    for (const s of g.sans) c.move(s);
  }
  sanRate.push(plies / (cpu() - t));
}
console.log(JSON.stringify({ games: parsed.length, plies, runs, pgn_plies_per_s: Math.round(median(pgnRate)),
  san_moves_per_s: Math.round(median(sanRate)) }));
