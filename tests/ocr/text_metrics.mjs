// Text accuracy of OCR output against ground-truth lines. Works in Node and browsers (no imports).
//
// Lines are normalised first: whitespace runs collapse to one space, ends are trimmed, empty lines
// are dropped. Read lines are matched one-to-one to truth lines, greedily by lowest per-line CER
// (edit distance / truth line length), so the reading order of the OCR output does not matter.
//
// - editDistance(a, b): Levenshtein distance over Unicode code points.
// - characterErrorRate(read, truth): the edit distance between the truth lines joined with '\n'
//   and the read lines in matched order (an unmatched truth line's slot is empty, so it counts as
//   deletions in full), plus the characters of the read lines left unmatched (insertions), divided
//   by the number of truth characters (joining newlines excluded).
// - linesFound(read, truth, maxLineCer): how many truth lines have a matched read line whose
//   per-line CER is at most maxLineCer.

/** Levenshtein distance between two strings, counted in Unicode code points. */
export function editDistance(a, b) {
  const x = Array.from(a);
  const y = Array.from(b);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[j] + 1, current[j - 1] + 1));
    }
    previous = current;
  }
  return previous[y.length];
}

const normalise = (lines) => lines.map((line) => String(line).replace(/\s+/g, ' ').trim()).filter(Boolean);
const length = (line) => Array.from(line).length;

// Greedy one-to-one matching: truth index -> { read index, distance }; cheapest per-line CER first.
function matchLines(read, truth) {
  const pairs = [];
  truth.forEach((t, i) => read.forEach((r, j) => {
    const distance = editDistance(t, r);
    pairs.push({ i, j, distance, cer: distance / length(t) });
  }));
  pairs.sort((p, q) => p.cer - q.cer || p.i - q.i || p.j - q.j);
  const matches = new Map();
  const used = new Set();
  for (const pair of pairs) {
    if (matches.has(pair.i) || used.has(pair.j)) continue;
    matches.set(pair.i, pair);
    used.add(pair.j);
  }
  return { matches, unusedRead: read.filter((_, j) => !used.has(j)) };
}

/** Character error rate of `readLines` against `truthLines` (see the header). */
export function characterErrorRate(readLines, truthLines) {
  const read = normalise(readLines);
  const truth = normalise(truthLines);
  const truthChars = truth.reduce((sum, line) => sum + length(line), 0);
  if (truthChars === 0) return read.length ? Infinity : 0;
  const { matches, unusedRead } = matchLines(read, truth);
  const ordered = truth.map((_, i) => (matches.has(i) ? read[matches.get(i).j] : ''));
  const insertions = unusedRead.reduce((sum, line) => sum + length(line), 0);
  return (editDistance(truth.join('\n'), ordered.join('\n')) + insertions) / truthChars;
}

/** How many truth lines were read with a per-line CER of at most `maxLineCer`. */
export function linesFound(readLines, truthLines, maxLineCer = 0.34) {
  const truth = normalise(truthLines);
  const { matches } = matchLines(normalise(readLines), truth);
  return truth.filter((_, i) => matches.has(i) && matches.get(i).cer <= maxLineCer).length;
}
