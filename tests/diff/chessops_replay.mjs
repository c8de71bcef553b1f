// Differential peer: replays the main line of every standard / Chess960 game
// with chessops (the lichess authors' rules library) and prints one JSON
// line per game. Run with NODE_PATH-independent resolution: the caller gives
// the directory that holds node_modules/chessops (see tests/diff/README).
//
//   node tests/diff/chessops_replay.mjs PEERDIR FILE...
//
// Games are split by this script's own small reader (not by chessops and not
// by pgncheck), so that every game carries the line number of its first line
// and can be aligned with pgncheck's "line" field. Each game's text is then
// handed to chessops' PGN parser and SAN parser.
//
// Output per game:
//   {"file","index","line","variant","status","plies","illegal_ply",
//    "illegal_san","fen","outcome","end","tail"}
// status: "ok" | "skipped" (other variant) | "setup-error" (FEN refused) |
//         "illegal" (a move chessops cannot play; illegal_ply/illegal_san)
// outcome: "checkmate" | "stalemate" | "insufficient" | null, for the final
//         position reached.
// end: the first automatic ending met along the line (possibly before the
//      last move): {"ply","kind","fen"} with kind checkmate, stalemate,
//      insufficient, fivefold (the same position, in the sense of FIDE 9.2.2,
//      for the fifth time) or seventy-five (halfmove clock reached 150 and the
//      last move was not mate); null when none.
// tail: up to 4 SAN tokens before the stopping point (and the failing one).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [peerDir, ...files] = process.argv.slice(2);
if (!peerDir || files.length === 0) {
  process.stderr.write('usage: chessops_replay.mjs PEERDIR FILE...\n');
  process.exit(2);
}
// The package's ES module build, loaded by path from the peer directory.
const esm = path.join(path.resolve(peerDir), 'node_modules', 'chessops', 'dist', 'esm');
const load = async m => import(pathToFileURL(path.join(esm, m + '.js')).href);
const { parsePgn, parseVariant, startingPosition } = await load('pgn');
const { parseSan } = await load('san');
const { makeFen } = await load('fen');


const out = [];
const flush = () => {
  if (out.length) {
    process.stdout.write(out.join(''));
    out.length = 0;
  }
};

// Split a file's lines into games: [{start (0-based line), end}].
// A game begins at its first tag line or at movetext that follows a finished
// game; a tag line after movetext or after a termination marker begins the
// next game. Brace comments may span lines; '%' lines are escapes.
function splitGames(lines) {
  const games = [];
  let cur = null; // {start, moves, done}
  let inComment = false;
  let depth = 0;
  const close = i => {
    if (cur) {
      cur.end = i;
      games.push(cur);
    }
    cur = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (inComment) {
      const c = line.indexOf('}');
      if (c === -1) continue;
      inComment = false;
      scanMoves(line.slice(c + 1), i);
      continue;
    }
    if (line.startsWith('%')) continue;
    const t = line.replace(/\x1a/g, '').trim(); // ^Z: DOS end-of-file mark
    if (t === '') {
      if (cur && !cur.moves && !cur.done) cur.gap = true;
      continue;
    }
    if (t.startsWith('[')) {
      // A tag block after a blank line that ended a tags-only game begins
      // the next game (header-only games, as broadcast exports have them).
      if (!cur || cur.moves || cur.done || cur.gap) {
        close(i);
        cur = { start: i, moves: false, done: false };
        depth = 0;
      }
      continue;
    }
    scanMoves(line, i);
  }
  close(lines.length);
  return games;

  function scanMoves(s, i) {
    let j = 0;
    while (j < s.length) {
      const ch = s[j];
      if (ch === ' ' || ch === '\t') {
        j++;
        continue;
      }
      if (ch === '{') {
        const c = s.indexOf('}', j + 1);
        if (c === -1) {
          inComment = true;
          return;
        }
        j = c + 1;
        continue;
      }
      if (ch === ';') return;
      if (!cur || cur.done) {
        close(i);
        cur = { start: i, moves: false, done: false };
        depth = 0;
      }
      if (ch === '(') depth++;
      else if (ch === ')') depth = Math.max(0, depth - 1);
      const m = /^(1-0|0-1|1\/2-1\/2|\*)(?=$|[\s{;(])/.exec(s.slice(j));
      if (m && depth === 0) {
        cur.done = true;
        j += m[0].length;
        continue;
      }
      cur.moves = true;
      let k = j + 1;
      while (k < s.length && !' \t{};()'.includes(s[k])) k++;
      j = k;
    }
  }
}

const fenOf = pos => makeFen(pos.toSetup());
const ROLES = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const posKey = pos => {
  const b = pos.board;
  const parts = [pos.turn, b.white.lo, b.white.hi];
  for (const r of ROLES) parts.push(b[r].lo, b[r].hi);
  const c = pos.castles.castlingRights;
  parts.push(c.lo, c.hi, pos.epSquare === undefined ? '-' : String(pos.toSetup().epSquare));
  return parts.join(',');
};

// A known tag name in another case ([fen], [setup], [variant]) is read as
// that tag when the right case is not given, the first such one if several,
// as pgncheck reads it (game.c, check_tag_case): the comparison is about
// the rules, not about this reading of the PGN standard's case-sensitive
// names, which chessops applies.
const KNOWN_TAGS = ['FEN', 'SetUp', 'Variant'];
function honourTagCase(headers) {
  for (const name of KNOWN_TAGS) {
    if (headers.has(name)) continue;
    for (const [k, v] of headers) {
      if (k.toLowerCase() === name.toLowerCase()) {
        headers.set(name, v);
        break;
      }
    }
  }
}

function replay(text) {
  const games = parsePgn(text);
  const r = { variant: null, status: 'ok', plies: 0, illegal_ply: null, illegal_san: null, fen: null, outcome: null, end: null, tail: [] };
  if (games.length === 0) return r;
  const game = games[0];
  honourTagCase(game.headers);
  const variant = (game.headers.get('Variant') || '').trim();
  r.variant = variant || null;
  // chessops' own reading of the Variant tag decides: its rules 'chess'
  // covers standard chess and Chess960; any other variant is skipped.
  if (parseVariant(variant || undefined) !== 'chess') {
    r.status = 'skipped';
    return r;
  }
  const start = startingPosition(game.headers);
  if (start.isErr) {
    r.status = 'setup-error';
    r.error = String(start.error && start.error.message);
    return r;
  }
  const pos = start.value;
  // Repetition (FIDE 9.2.2): same side to move, pieces, castling rights and
  // en passant possibility. Only positions since the last capture or pawn
  // move can repeat, so the table is cleared when the clock is reset.
  const seen = new Map();
  const note = () => {
    if (pos.halfmoves === 0) seen.clear();
    const k = posKey(pos);
    const n = (seen.get(k) || 0) + 1;
    seen.set(k, n);
    return n;
  };
  // The first automatic ending along the line, the start position included.
  const checkEnd = () => {
    const reps = note();
    if (r.end) return;
    let kind = null;
    const ctx = pos.ctx();
    const moves = pos.hasDests(ctx);
    if (!moves && ctx.checkers.nonEmpty()) kind = 'checkmate';
    else if (!moves) kind = 'stalemate';
    else if (pos.isInsufficientMaterial()) kind = 'insufficient';
    else if (reps >= 5) kind = 'fivefold';
    else if (pos.halfmoves >= 150) kind = 'seventy-five';
    if (kind) r.end = { ply: r.plies, kind, fen: fenOf(pos) };
  };
  checkEnd();
  let node = game.moves;
  const sans = [];
  while (node.children.length > 0) {
    node = node.children[0];
    const san = node.data.san;
    const move = parseSan(pos, san);
    if (!move) {
      r.status = 'illegal';
      r.illegal_ply = r.plies + 1;
      r.illegal_san = san;
      sans.push(san);
      break;
    }
    pos.play(move);
    r.plies++;
    sans.push(san);
    checkEnd();
  }
  r.tail = sans.slice(-5);
  r.fen = fenOf(pos);
  if (pos.isCheckmate()) r.outcome = 'checkmate';
  else if (pos.isStalemate()) r.outcome = 'stalemate';
  else if (pos.isInsufficientMaterial()) r.outcome = 'insufficient';
  return r;
}

for (const file of files) {
  let data = readFileSync(file).toString('latin1');
  if (data.startsWith('\xef\xbb\xbf')) data = data.slice(3);
  const lines = data.split(/\r\n|\n|\r/);
  const games = splitGames(lines);
  games.forEach((g, n) => {
    // Blank lines end a game for chessops' reader; the split is already done.
    const text = lines.slice(g.start, g.end).filter(l => l.trim() !== '').join('\n') + '\n';
    let r;
    try {
      r = replay(text);
    } catch (e) {
      r = { status: 'peer-error', error: String(e) };
    }
    out.push(JSON.stringify({ file, index: n + 1, line: g.start + 1, ...r }) + '\n');
    if (out.length >= 1000) flush();
  });
}
flush();
