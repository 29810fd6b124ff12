#!/usr/bin/env node
// match.mjs: plays the engine (`octad uci`) against an opponent and reports the
// score, an Elo estimate with its 95% error bar, illegal moves and time losses.
// The rules (legality, mate, draws) are chess.js's, not ours; clocks are kept here.
//
// usage: node tools/bench/match.mjs [--octad build/bin/octad] [--opponent stockfish:ELO|fairymax|self|octad:PATH]
//        [--games N] [--tc BASE+INC] (seconds) [--hash MB] [--pgn FILE] [--timemargin MS]
//        [--nodes N] [--opponent-nodes M] [--random-plies K] [--journal FILE] [--concurrency N]
// --nodes N: every UCI move is `go nodes N` instead of a clock (CPU-speed independent, so
// two engine builds can be compared on a loaded machine: --opponent octad:OLD_BUILD);
// --opponent-nodes M gives the opponent M instead (default N), e.g. to charge a build
// that searches fewer nodes per second with fewer nodes.
// --random-plies K: after the book opening, K further plies chosen at random (the same
// K plies for both games of a pair, from a fixed seed per pair), so deterministic
// engines (fixed nodes) do not replay the same 40 games.
// A move that overruns the clock loses, unless --timemargin allows it (then it is counted
// as an overrun of that engine, the move costs no time, and the game goes on): on a loaded
// machine the wall time between `go` and `bestmove` includes time spent waiting for a CPU.
// --journal FILE: each finished game is appended to FILE as a JSON line (after a first line
// with the run's parameters); run the same command again after an interruption and only the
// missing games are played, the totals and the PGN still covering all of them. It is refused
// if the opponent, --tc, --games, the node counts, --random-plies, --hash, --timemargin or
// the octad binary (path and SHA-256) differ from the journal's first line. Each game's line
// also holds, per ply, the mover's wall time (ms) and its last reported score (scores);
// tools/bench/match_report.mjs summarises them (time use by move number, where games were lost).
// --concurrency N: N games at once, each with its own pair of engine processes (one core
// per game: the engines do not ponder); game lines appear as games end, totals and PGN
// are in game order. A progress line (score, Elo, time left) goes to stderr after each game.
// Openings: the built-in list below, each played twice with colours swapped (game pair p
// uses opening p mod 20, then its random plies, if any).
import { createInterface } from 'node:readline';
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Chess } from 'chess.js';

const OPENINGS = [
  'e2e4 e7e5 g1f3 b8c6 f1b5', 'e2e4 c7c5 g1f3 d7d6 d2d4', 'e2e4 e7e6 d2d4 d7d5', 'e2e4 c7c6 d2d4 d7d5',
  'd2d4 d7d5 c2c4 e7e6', 'd2d4 g8f6 c2c4 g7g6 b1c3', 'd2d4 g8f6 c2c4 e7e6 g1f3', 'c2c4 e7e5 b1c3',
  'g1f3 d7d5 g2g3', 'e2e4 d7d5 e4d5 d8d5', 'e2e4 g8f6 e4e5 f6d5', 'd2d4 d7d5 c2c4 c7c6',
  'e2e4 e7e5 g1f3 g8f6', 'e2e4 c7c5 b1c3 b8c6', 'd2d4 f7f5 g2g3', 'b2b3 e7e5 c1b2',
  'e2e4 e7e5 f2f4', 'd2d4 g8f6 g1f3 e7e6 c1g5', 'c2c4 c7c5 g1f3 g8f6', 'e2e4 d7d6 d2d4 g8f6 b1c3',
];

function fail(message) { console.error(`match.mjs: ${message}`); process.exit(2); }

function parseArgs(argv) {
  const a = { octad: 'build/bin/octad', opponent: 'stockfish:1500', games: 20, tc: '10+0.1', hash: 16, pgn: null, timemargin: 0, nodes: 0, 'opponent-nodes': 0, 'random-plies': 0,
              concurrency: 1, journal: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (k === 'help') {
      console.log('usage: node tools/bench/match.mjs [--octad PATH] [--opponent stockfish:ELO|fairymax|self|octad:PATH] ' +
                  '[--games N] [--tc BASE+INC] [--hash MB] [--pgn FILE] [--timemargin MS] [--nodes N] [--opponent-nodes M] ' +
                  '[--random-plies K] [--journal FILE] [--concurrency N]\n' +
                  '  --journal FILE   record each finished game in FILE; the same command run again resumes there\n' +
                  '                   (refused if the game settings or the octad binary differ)\n' +
                  '  --concurrency N  play N games at once, each with its own engine processes (default 1)\n' +
                  'The comment at the top of tools/bench/match.mjs explains the other options.');
      process.exit(0);
    }
    if (!(k in a) || i + 1 >= argv.length) fail(`bad option ${argv[i]}`);
    a[k] = argv[++i];
  }
  a.games = Number(a.games);
  a.timemargin = Number(a.timemargin);
  a.nodes = Number(a.nodes);
  a.randomPlies = Number(a['random-plies']);
  a.concurrency = Number(a.concurrency);
  if (!(Number.isInteger(a.concurrency) && a.concurrency >= 1)) fail('bad --concurrency (a whole number, 1 or more)');
  a.opponentNodes = a['opponent-nodes'] === 0 ? a.nodes : Number(a['opponent-nodes']);
  if (![a.nodes, a.opponentNodes, a.randomPlies].every((x) => Number.isInteger(x) && x >= 0) || (a.opponentNodes && !a.nodes)) {
    fail('bad --nodes, --opponent-nodes or --random-plies');
  }
  const [base, inc] = a.tc.split('+').map(Number);
  if (!(base > 0) || !(inc >= 0) || !(Number.isInteger(a.games) && a.games > 0)) fail('bad --tc or --games');
  a.base = base * 1000; a.inc = inc * 1000;
  return a;
}

function findProgram(name) {
  for (const dir of (process.env.PATH || '').split(':').concat(['/usr/games']))
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  console.error(`match.mjs: ${name} not found (tools/install-deps.sh installs it)`); process.exit(2);
}

// A child process speaking lines; wait(pred, ms) resolves with the first matching line or null on timeout.
class Proc {
  constructor(cmd, args) {
    this.p = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    this.buf = []; this.waiters = [];
    createInterface({ input: this.p.stdout }).on('line', (l) => {
      const w = this.waiters.findIndex((x) => x.pred(l));
      if (w >= 0) { const [x] = this.waiters.splice(w, 1); clearTimeout(x.timer); x.resolve(l); }
    });
  }
  send(l) { this.p.stdin.write(l + '\n'); }
  wait(pred, ms) {
    return new Promise((resolve) => {
      const x = { pred, resolve };
      x.timer = setTimeout(() => { this.waiters.splice(this.waiters.indexOf(x), 1); resolve(null); }, ms);
      this.waiters.push(x);
    });
  }
  kill() { this.p.kill(); }
}

// A UCI engine. move() returns the UCI move text, or null when it does not answer in time.
class UciPlayer {
  constructor(name, cmd, args, options, nodes) {
    this.name = name; this.cmd = cmd; this.args = args; this.options = options; this.nodes = nodes;
  }
  async start() {
    this.proc = new Proc(this.cmd, this.args);
    this.proc.send('uci');
    if (!(await this.proc.wait((l) => l === 'uciok', 10000))) throw new Error(`${this.name}: no uciok`);
    for (const [k, v] of Object.entries(this.options)) this.proc.send(`setoption name ${k} value ${v}`);
  }
  async newGame() {
    this.proc.send('ucinewgame'); this.proc.send('isready');
    if (!(await this.proc.wait((l) => l === 'readyok', 10000))) throw new Error(`${this.name}: no readyok`);
  }
  async move(moves, clock, limitMs) {
    this.proc.send(`position startpos${moves.length ? ' moves ' + moves.join(' ') : ''}`);
    if (this.nodes) this.proc.send(`go nodes ${this.nodes}`);
    else this.proc.send(`go wtime ${Math.max(1, Math.floor(clock.w))} btime ${Math.max(1, Math.floor(clock.b))} winc ${clock.inc} binc ${clock.inc}`);
    let score = null;
    const l = await this.proc.wait((x) => {
      const m = x.startsWith('info') && / score (cp|mate) (-?\d+)/.exec(x);
      if (m && !/ (lower|upper)bound/.test(x)) score = m[1] === 'cp' ? Number(m[2]) : `#${m[2]}`;
      return x.startsWith('bestmove');
    }, limitMs);
    this.score = score;
    return l ? l.split(/\s+/)[1] : null;
  }
  stop() { this.proc.send('quit'); setTimeout(() => this.proc.kill(), 500); }
}

// An xboard (CECP) engine, fairymax: kept in force mode, asked for one move at a time.
class XboardPlayer {
  constructor(name, cmd) { this.name = name; this.cmd = cmd; }
  async start() {
    this.proc = new Proc(this.cmd, []);
    this.proc.send('xboard'); this.proc.send('protover 2');
    await this.proc.wait((l) => l.includes('done=1'), 2000);
  }
  async newGame() { this.proc.send('new'); this.proc.send('force'); this.sent = 0; this.proc.send('post'); }
  async move(moves, clock, limitMs, base, inc) {
    if (this.sent === 0) this.proc.send(`level 0 ${Math.floor(base / 60000)}:${String(Math.round(base / 1000) % 60).padStart(2, '0')} ${inc / 1000}`);
    for (; this.sent < moves.length; this.sent++) this.proc.send(moves[this.sent]);
    const mine = moves.length % 2 === 0 ? clock.w : clock.b, theirs = moves.length % 2 === 0 ? clock.b : clock.w;
    this.proc.send(`time ${Math.max(1, Math.floor(mine / 10))}`); this.proc.send(`otim ${Math.max(1, Math.floor(theirs / 10))}`);
    this.proc.send('go');
    const l = await this.proc.wait((x) => /^move /.test(x), limitMs);
    this.proc.send('force');
    this.score = null; // its thinking output is not read
    if (l) this.sent++;
    return l ? l.split(/\s+/)[1] : null;
  }
  stop() { this.proc.send('quit'); setTimeout(() => this.proc.kill(), 500); }
}

function makePlayer(spec, a) {
  if (spec === 'octad' || spec === 'self')
    return new UciPlayer('octad', a.octad, ['uci'], { Hash: a.hash }, a.nodes);
  if (spec.startsWith('octad:')) {
    const path = spec.slice(6);
    if (!existsSync(path)) { console.error(`match.mjs: ${path} not found`); process.exit(2); }
    return new UciPlayer('octad-opponent', path, ['uci'], { Hash: a.hash }, a.opponentNodes);
  }
  if (spec.startsWith('stockfish')) {
    const elo = spec.split(':')[1];
    const opts = { Threads: 1, Hash: a.hash };
    if (elo) Object.assign(opts, { UCI_LimitStrength: 'true', UCI_Elo: elo });
    return new UciPlayer(`stockfish${elo ? '-' + elo : ''}`, findProgram('stockfish'), [], opts, a.opponentNodes);
  }
  if (spec === 'fairymax') return new XboardPlayer('fairymax', findProgram('fairymax'));
  console.error(`match.mjs: unknown opponent ${spec}`); process.exit(2);
}

// A small seeded generator (mulberry32), so the random plies of pair p are the same every run.
function rng(seed) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// The opening of game pair p: the book line, then randomPlies random legal plies (UCI texts).
function openingOf(p, a) {
  const chess = new Chess(), line = OPENINGS[p % OPENINGS.length].split(' ');
  for (const m of line) chess.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] });
  const r = rng(0x9e3779b9 ^ p);
  for (let k = 0; k < a.randomPlies && !chess.isGameOver(); k++) {
    const legal = chess.moves({ verbose: true });
    const m = legal[Math.floor(r() * legal.length)];
    chess.move(m);
    line.push(m.from + m.to + (m.promotion || ''));
  }
  return line.join(' ');
}

// One game; returns { result: 1 | 0.5 | 0 for white, reason, moves, illegal: name|null, timeout: name|null,
// overruns: { w, b } (moves over the clock but within --timemargin, per colour), and per ply (null for
// the opening's plies) ms: the wall time the mover took, scores: the mover's last exact UCI score
// (centipawns from its own side, or '#N' for a mate in N, '#-N' for being mated; null if none) }.
async function playGame(white, black, opening, a) {
  const chess = new Chess();
  const moves = [], overruns = { w: 0, b: 0 }, ms = [], scores = [];
  const end = (result, reason, by = {}) => ({ result, reason, moves, illegal: null, timeout: null, ...by, overruns, ms, scores });
  for (const m of opening.split(' ')) {
    chess.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] }); moves.push(m); ms.push(null); scores.push(null);
  }
  const clock = { w: a.base, b: a.base, inc: a.inc };
  await white.newGame(); await black.newGame();
  while (!chess.isGameOver() && moves.length < 400) {
    const side = chess.turn(), p = side === 'w' ? white : black;
    const t0 = performance.now();
    const mv = await p.move(moves, clock, a.nodes ? 60000 : clock[side] + a.timemargin + 2000, a.base, a.inc);
    const used = a.nodes ? 0 : performance.now() - t0; // a node limit: no clock
    clock[side] -= used;
    if (process.env.MATCH_DEBUG) console.error(`${p.name} ${mv} used ${used.toFixed(0)} left ${clock[side].toFixed(0)}`);
    if (mv === null || clock[side] < -a.timemargin) return end(side === 'w' ? 0 : 1, 'time', { timeout: p.name });
    if (clock[side] < 0) { overruns[side]++; clock[side] += used; }
    let ok = null;
    try { ok = chess.move({ from: mv.slice(0, 2), to: mv.slice(2, 4), promotion: mv[4] }); } catch { ok = null; }
    if (!ok || mv.length < 4) return end(side === 'w' ? 0 : 1, `illegal ${mv}`, { illegal: p.name });
    moves.push(mv); ms.push(Math.round(performance.now() - t0)); scores.push(p.score ?? null);
    clock[side] += a.inc;
  }
  if (chess.isCheckmate()) return end(chess.turn() === 'w' ? 0 : 1, 'mate');
  const reason = chess.isStalemate() ? 'stalemate' : chess.isThreefoldRepetition() ? 'repetition'
    : chess.isInsufficientMaterial() ? 'material' : moves.length >= 400 ? 'length' : '50-move';
  return end(0.5, reason);
}

// What is kept of game g (0-based): everything from octad's side, ready for the log line and the PGN.
function gameRecord(g, opening, oursWhite, opponent, r) {
  const [ours, theirs] = oursWhite ? ['w', 'b'] : ['b', 'w'];
  return { game: g + 1, opening, octad: oursWhite ? 'white' : 'black', opponent, score: oursWhite ? r.result : 1 - r.result,
           reason: r.reason, plies: r.moves.length, illegal: r.illegal, timeout: r.timeout,
           overruns: { octad: r.overruns[ours], opponent: r.overruns[theirs] }, moves: r.moves, ms: r.ms, scores: r.scores };
}

function gameLine(r) {
  const by = r.illegal || r.timeout;
  return `game ${r.game}: octad ${r.octad} ${r.score} (${r.reason}${by ? ' by ' + by : ''}), ${r.plies} plies`;
}

function pgnOf(r) {
  const white = r.octad === 'white' ? 'octad' : r.opponent, black = r.octad === 'white' ? r.opponent : 'octad';
  const w = r.octad === 'white' ? r.score : 1 - r.score;
  return `[White "${white}"]\n[Black "${black}"]\n[Result "${w === 1 ? '1-0' : w === 0 ? '0-1' : '1/2-1/2'}"]\n\n${r.moves.join(' ')}\n`;
}

function elo(scores) {
  const n = scores.length, mean = scores.reduce((s, x) => s + x, 0) / n;
  const sd = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / n) / Math.sqrt(n);
  const toElo = (p) => (p <= 0 ? -Infinity : p >= 1 ? Infinity : -400 * Math.log10(1 / p - 1));
  return { mean, elo: toElo(mean), lo: toElo(mean - 1.96 * sd), hi: toElo(mean + 1.96 * sd) };
}

// The journal: a first line with the run's parameters, then one line per finished game (its
// record), appended as each game ends. A run given the journal of an interrupted one plays
// only the games missing from it, and only if its parameters are the same.
function runParams(a) {
  let version = null;
  try { version = execFileSync(a.octad, ['--version'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { /* none */ }
  return { opponent: a.opponent, tc: a.tc, games: a.games, nodes: a.nodes, opponentNodes: a.opponentNodes,
           randomPlies: a.randomPlies, hash: Number(a.hash), timemargin: a.timemargin, octad: resolve(a.octad),
           octadVersion: version, octadSha256: createHash('sha256').update(readFileSync(a.octad)).digest('hex') };
}

// The journal's records as parsed lines. A last line that is not JSON (the run ended while
// writing it) is cut off the file with a warning; any other such line is an error.
function readJournal(file) {
  const text = readFileSync(file, 'utf8'), lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const records = [];
  for (const [i, line] of lines.entries()) {
    try { records.push(JSON.parse(line)); continue; } catch { /* below */ }
    if (i < lines.length - 1) fail(`${file}, line ${i + 1}: not a JSON record; the journal is damaged`);
    console.error(`match.mjs: warning: ${file}: the last line is not a whole record (${line.length} characters, ` +
                  'likely a run that stopped mid-write); it is ignored and cut off the file');
    truncateSync(file, Buffer.byteLength(lines.slice(0, i).map((l) => l + '\n').join('')));
    return records;
  }
  if (text && !text.endsWith('\n')) appendFileSync(file, '\n'); // a whole last record that lacks its newline
  return records;
}

// Opens the journal for this run: returns the game records it already holds (by game, from 1),
// or starts a new journal with the parameter line.
function openJournal(file, params) {
  const [head, ...games] = existsSync(file) ? readJournal(file) : [];
  const done = new Map();
  if (!head) {
    appendFileSync(file, JSON.stringify({ params, started: new Date().toISOString() }) + '\n');
    return done;
  }
  if (!head.params) fail(`${file}: the first line is not a match journal's parameter line`);
  for (const k of new Set([...Object.keys(params), ...Object.keys(head.params)])) {
    const was = JSON.stringify(head.params[k]), now = JSON.stringify(params[k]);
    if (was !== now) fail(`${file} belongs to another run: ${k} was ${was}, is ${now} now (give another --journal to start a new run)`);
  }
  for (const r of games) {
    if (!Number.isInteger(r.game) || r.game < 1 || r.game > params.games || done.has(r.game))
      fail(`${file}: a record with a bad or repeated game number (${JSON.stringify(r.game)})`);
    done.set(r.game, r);
  }
  return done;
}

// Totals over game records: wins, draws, losses (octad's), illegal moves, time losses, overruns.
function tally(records) {
  const t = { w: 0, d: 0, l: 0, illegal: 0, timeouts: 0, overruns: { octad: 0, opponent: 0 } };
  for (const r of records) {
    if (r.score === 1) t.w++; else if (r.score === 0) t.l++; else t.d++;
    if (r.illegal) t.illegal++;
    if (r.timeout) t.timeouts++;
    t.overruns.octad += r.overruns.octad; t.overruns.opponent += r.overruns.opponent;
  }
  return t;
}

const fmtElo = (x) => (Number.isFinite(x) ? x.toFixed(0) : x > 0 ? '+inf' : '-inf');

const hms = (ms) => {
  const t = Math.round(ms / 1000);
  return `${Math.floor(t / 3600)}:${String(Math.floor(t / 60) % 60).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
};

// The progress line after each game: all games so far (journal ones included); the time left is
// extrapolated from the games this process has played, at the rate it played them.
function progressLine(records, total, startMs, playedHere) {
  const done = records.filter(Boolean), t = tally(done), e = elo(done.map((r) => r.score));
  const elapsed = performance.now() - startMs, left = (elapsed / playedHere) * (total - done.length);
  return `match.mjs: ${done.length}/${total} games, +${t.w} =${t.d} -${t.l} (${(100 * e.mean).toFixed(1)}%), ` +
         `Elo ${fmtElo(e.elo)} [${fmtElo(e.lo)}, ${fmtElo(e.hi)}], elapsed ${hms(elapsed)}, about ${hms(left)} left`;
}

// One worker: its own pair of engine processes, playing the game indices it takes from the
// shared queue until the queue is empty; onGame(record) is called as each game ends.
async function worker(queue, a, onGame) {
  const ours = makePlayer('octad', a), theirs = makePlayer(a.opponent, a);
  await ours.start(); await theirs.start();
  for (let g = queue.shift(); g !== undefined; g = queue.shift()) {
    const opening = openingOf(Math.floor(g / 2), a), oursWhite = g % 2 === 0;
    const r = await playGame(oursWhite ? ours : theirs, oursWhite ? theirs : ours, opening, a);
    onGame(gameRecord(g, opening, oursWhite, theirs.name, r));
  }
  ours.stop(); theirs.stop();
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const startMs = performance.now();
  if (!existsSync(a.octad)) fail(`${a.octad} not found (bash tools/build.sh build builds it, or pass --octad)`);
  const opponent = makePlayer(a.opponent, a).name;
  const records = new Array(a.games);
  if (a.journal) {
    const done = openJournal(a.journal, runParams(a));
    for (const r of done.values()) records[r.game - 1] = r;
    const left = a.games - done.size;
    if (done.size) console.log(`${a.journal}: ${done.size} of ${a.games} games already played; ${left ? `playing the remaining ${left}` : 'none left to play'}`);
  }
  const queue = [...records.keys()].filter((g) => !records[g]);
  let playedHere = 0;
  const onGame = (r) => {
    records[r.game - 1] = r;
    if (a.journal) appendFileSync(a.journal, JSON.stringify(r) + '\n');
    console.log(gameLine(r));
    console.error(progressLine(records, a.games, startMs, ++playedHere));
  };
  const workers = Math.min(a.concurrency, queue.length);
  await Promise.all(Array.from({ length: workers }, () => worker(queue, a, onGame)));
  const t = tally(records), e = elo(records.map((r) => r.score));
  const tc = a.nodes ? `${a.nodes} nodes/move (opponent ${a.opponentNodes})` : a.tc;
  const overruns = { octad: t.overruns.octad, [opponent === 'octad' ? 'opponent' : opponent]: t.overruns.opponent };
  console.log(`octad vs ${opponent}, ${a.games} games at ${tc}: +${t.w} =${t.d} -${t.l}, score ${(100 * e.mean).toFixed(1)}%, ` +
              `Elo diff ${fmtElo(e.elo)} [${fmtElo(e.lo)}, ${fmtElo(e.hi)}] (95%), illegal moves ${t.illegal}, ` +
              `time losses ${t.timeouts}, overruns within the margin ${JSON.stringify(overruns)}`);
  if (a.pgn) writeFileSync(a.pgn, records.map(pgnOf).join('\n'));
  process.exit(0);
}

main().catch((err) => { console.error(`match.mjs: ${err.message}`); process.exit(1); });
