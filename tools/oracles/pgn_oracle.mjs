// pgn_oracle.mjs: replays the games `octad pgn --json` printed (standard input)
// with chess.js, an independent chess library, and checks that every move is
// legal there, that the final positions agree, and that checkmate, stalemate
// and insufficient material are reported alike.
// usage: octad pgn --json FILES | node tools/oracles/pgn_oracle.mjs NODE_MODULES_DIR
import { createRequire } from 'module';
import readline from 'readline';

const require = createRequire(process.argv[2] + '/');
const { Chess } = require('chess.js');

// FEN without the e.p. field (chess.js and we may differ on a useless e.p. square).
const strip = (fen) => fen.split(' ').filter((_, i) => i !== 3).join(' ');

let checked = 0, plies = 0, skipped = 0, bad = 0;
const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  const g = JSON.parse(line);
  if (g.variant !== 'chess' || g.errors.length > 0) { skipped++; continue; }
  try {
    const board = new Chess(g.start);
    for (const san of g.moves) board.move(san);
    if (strip(board.fen()) !== strip(g.final))
      throw new Error(`final ${board.fen()} (chess.js) != ${g.final} (octad)`);
    const rule = { checkmate: board.isCheckmate(), stalemate: board.isStalemate(),
                   'insufficient material': board.isInsufficientMaterial() };
    for (const [name, holds] of Object.entries(rule))
      if ((g.termination === name) !== holds && !(name === 'insufficient material' && board.isCheckmate()))
        throw new Error(`termination ${g.termination}, but chess.js says ${name} is ${holds}`);
    checked++;
    plies += g.moves.length;
  } catch (e) {
    bad++;
    console.log(`MISMATCH ${g.file} game ${g.game}: ${e.message}`);
  }
}
console.log(`chess.js agrees on ${checked} games (${plies} plies); ${bad} disagree; ${skipped} not chess or broken`);
process.exit(bad > 0 || checked === 0 ? 1 : 0);
