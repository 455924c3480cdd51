// Symbolic dimensions (model format v2): a dimension is a number, a symbol (a string such as
// "batch" naming a positive integer bound per run), or, inside a shape function, null for a
// size nobody can name yet; shape inference gives every null a fresh symbol. Small integer
// tensors that shape arithmetic computes (Shape -> Gather -> Concat ...) carry their
// `elements` the same way: numbers, symbols, or null where unknown.
import { ConvertError } from './errors.js';

/** True for a symbolic dimension. */
export const isSymbol = (d) => typeof d === 'string';

/** True when every dimension of `shape` is a number. */
export const isStaticShape = (shape) => shape.every((d) => typeof d === 'number');

/** `shape` as text: [1, "batch", 3]. */
export const formatShape = (shape) => `[${shape.map((d) => (isSymbol(d) ? JSON.stringify(d) : d)).join(',')}]`;

/**
 * The broadcast of two dimensions: equal ones, the other of a 1, the number where a number
 * (other than 1) meets a symbol, and null for two different symbols (either may be 1).
 */
export function broadcastDim(a, b) {
  if (a === b || b === 1) return a;
  if (a === 1) return b;
  if (typeof a === 'number' && typeof b === 'number') return undefined;  // a mismatch
  if (typeof a === 'number') return a;
  if (typeof b === 'number') return b;
  return null;
}

/** The product of `dims`: a number, a symbol when it is one symbol times 1, else null. */
export function dimProduct(dims) {
  let number = 1;
  const symbols = [];
  for (const d of dims) {
    if (d === null) return null;
    if (isSymbol(d)) symbols.push(d);
    else number *= d;
  }
  if (symbols.length === 0 || number === 0) return number;
  return symbols.length === 1 && number === 1 ? symbols[0] : null;
}

// A product of dims as { number, symbols: sorted list } (null when a dim is unknown).
function factors(dims) {
  let number = 1;
  const symbols = [];
  for (const d of dims) {
    if (d === null) return null;
    if (isSymbol(d)) symbols.push(d);
    else number *= d;
  }
  return { number, symbols: symbols.sort() };
}

/**
 * The dimension a Reshape's -1 stands for: `input`'s element count divided by the product of
 * `known` (the other target dims). A number or a symbol when the symbols cancel, else null.
 */
export function inferredDim(input, known) {
  const total = factors(input);
  const part = factors(known);
  if (!total || !part || part.number === 0) return null;
  const rest = [...total.symbols];
  for (const s of part.symbols) {
    const at = rest.indexOf(s);
    if (at < 0) return null;
    rest.splice(at, 1);
  }
  if (total.number % part.number !== 0) {
    if (total.symbols.length === 0 && part.symbols.length === 0) {
      throw new ConvertError(`cannot infer -1: ${total.number} elements do not divide by ${part.number}`);
    }
    return null;
  }
  const ratio = total.number / part.number;
  if (rest.length === 0) return ratio;
  return rest.length === 1 && ratio === 1 ? rest[0] : null;
}

/** A sum of dims: a number, the one dim when the others are 0, else null. */
export function dimSum(dims) {
  if (dims.every((d) => typeof d === 'number')) return dims.reduce((a, b) => a + b, 0);
  const nonzero = dims.filter((d) => d !== 0);
  return nonzero.length === 1 ? nonzero[0] : null;
}

// Dimensions are below 2^31: a bound at least this large means "to the end".
const kHuge = 2 ** 31;

/**
 * One element of integer arithmetic on shape values (numbers, symbols, null), as the engine
 * computes int64: symbols survive the identities (s + 0, s * 1, s / 1, min/max with a
 * bound that cannot win), and comparisons of a symbol (>= 1) with a number below 1.
 */
export function elementOp(op, a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    switch (op) {
      case 'Add': return a + b;
      case 'Sub': return a - b;
      case 'Mul': return a * b;
      case 'Div': return b === 0 ? null : Math.trunc(a / b);
      case 'Mod': return b === 0 ? null : ((a % b) + b) % b;
      case 'Min': return Math.min(a, b);
      case 'Max': return Math.max(a, b);
      case 'Equal': return +(a === b);
      case 'Less': return +(a < b);
      case 'Greater': return +(a > b);
      case 'LessOrEqual': return +(a <= b);
      case 'GreaterOrEqual': return +(a >= b);
      default: return null;
    }
  }
  if (a === null || b === null) return null;
  const same = a === b;
  switch (op) {
    case 'Add': return b === 0 ? a : a === 0 ? b : null;
    case 'Sub': return b === 0 ? a : same ? 0 : null;
    case 'Mul': return b === 1 ? a : a === 1 ? b : a === 0 || b === 0 ? 0 : null;
    case 'Div': return b === 1 ? a : same ? 1 : null;
    case 'Min':
      if (same) return a;
      if (typeof b === 'number') return b <= 1 ? b : b >= kHuge ? a : null;
      return a <= 1 ? a : a >= kHuge ? b : null;
    case 'Max':
      if (same) return a;
      if (typeof b === 'number') return b <= 1 ? a : null;
      return a <= 1 ? b : null;
    case 'Equal':
      if (same) return 1;
      return (typeof a === 'number' && a < 1) || (typeof b === 'number' && b < 1) ? 0 : null;
    case 'Less': return typeof b === 'number' && b <= 1 ? 0 : typeof a === 'number' && a < 1 ? 1 : null;
    case 'Greater': return typeof a === 'number' && a <= 1 ? 0 : typeof b === 'number' && b < 1 ? 1 : null;
    case 'LessOrEqual': return same ? 1 : typeof b === 'number' && b < 1 ? 0 : typeof a === 'number' && a <= 1 ? 1 : null;
    case 'GreaterOrEqual': return same ? 1 : typeof a === 'number' && a < 1 ? 0 : typeof b === 'number' && b <= 1 ? 1 : null;
    default: return null;
  }
}
