#!/usr/bin/env node
// match_report.mjs: reads a tools/bench/match.mjs journal and summarises, from each engine's own
// reports, how the games went: the median wall time per move in bands of move numbers (both
// sides), and for the games octad lost, where it first saw itself behind.
//
// usage: node tools/bench/match_report.mjs JOURNAL [--behind CP]
// --behind CP: "behind" means octad's own score at or below -CP centipawns (default 150) or a
// mate against it. Games recorded before match.mjs kept times and scores are skipped (counted).
import { readFileSync } from 'node:fs';

function fail(message) { console.error(`match_report.mjs: ${message}`); process.exit(2); }

function parseArgs(argv) {
  const a = { journal: null, behind: 150 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--help') { console.log('usage: node tools/bench/match_report.mjs JOURNAL [--behind CP]'); process.exit(0); }
    else if (argv[i] === '--behind') {
      a.behind = Number(argv[++i]);
      if (!Number.isInteger(a.behind) || a.behind <= 0) fail('--behind: expected a positive whole number of centipawns');
    } else if (argv[i].startsWith('--')) fail(`unknown option ${argv[i]}`);
    else if (a.journal) fail(`one journal only (got ${a.journal} and ${argv[i]})`);
    else a.journal = argv[i];
  }
  if (!a.journal) fail('no journal given (see --help)');
  return a;
}

function readGames(file) {
  let text;
  try { text = readFileSync(file, 'utf8'); } catch (err) { fail(`${file}: ${err.message}`); }
  const lines = text.split('\n').filter((l) => l.trim());
  return lines.slice(1).map((l, i) => {
    try { return JSON.parse(l); } catch { fail(`${file} line ${i + 2}: not JSON`); }
  });
}

const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((x, y) => x - y), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// A score as centipawns for comparisons: a mate counts as +-100000.
const cp = (v) => (typeof v === 'number' ? v : v.startsWith('#-') ? -100000 : 100000);

const BANDS = [[1, 20], [21, 40], [41, 60], [61, 1000]];

function main() {
  const a = parseArgs(process.argv.slice(2));
  const games = readGames(a.journal), usable = games.filter((g) => Array.isArray(g.ms) && Array.isArray(g.scores));
  console.log(`${a.journal}: ${games.length} games, ${usable.length} with times and scores`);
  if (!usable.length) return;
  const times = { octad: BANDS.map(() => []), opponent: BANDS.map(() => []) };
  for (const g of usable) {
    const oursParity = g.octad === 'white' ? 0 : 1;
    g.ms.forEach((t, ply) => {
      if (t === null) return;
      const move = (ply >> 1) + 1, b = BANDS.findIndex(([lo, hi]) => move >= lo && move <= hi);
      times[ply % 2 === oursParity ? 'octad' : 'opponent'][b].push(t);
    });
  }
  console.log('median ms per move, by move number:');
  for (const [i, [lo, hi]] of BANDS.entries()) {
    const band = hi >= 1000 ? `${lo}+` : `${lo}-${hi}`;
    console.log(`  moves ${band.padEnd(6)} octad ${String(median(times.octad[i]) ?? '-').padStart(6)}` +
                `  opponent ${String(median(times.opponent[i]) ?? '-').padStart(6)}  (${times.octad[i].length} / ${times.opponent[i].length} moves)`);
  }
  const lost = usable.filter((g) => g.score === 0);
  const firstBehind = [], aheadBefore = [];
  for (const g of lost) {
    const oursParity = g.octad === 'white' ? 0 : 1;
    let best = -Infinity, at = null;
    for (let ply = oursParity; ply < g.scores.length; ply += 2) {
      const v = g.scores[ply];
      if (v === null) continue;
      if (cp(v) <= -a.behind) { at = ply; break; }
      best = Math.max(best, cp(v));
    }
    if (at !== null) firstBehind.push((at >> 1) + 1);
    if (best >= a.behind) aheadBefore.push(g.game);
  }
  console.log(`octad lost ${lost.length}: it first saw itself ${a.behind} cp behind at median move ` +
              `${median(firstBehind) ?? '-'} (${firstBehind.length} games); in ${aheadBefore.length} of them it had seen itself ` +
              `${a.behind} cp ahead before that${aheadBefore.length ? ` (games ${aheadBefore.join(' ')})` : ''}`);
}

main();
