// The values of small integer tensors computed from shapes (Shape -> Gather -> Concat ...),
// element by element: a number, a symbol (a dimension only the engine knows), or null. When
// every element of a result is a number, the converter folds it into a constant, so a chain
// on symbolic shapes keeps only the part that really depends on a symbol.
import { normalizeAxis, shapeRange, sliceRanges } from './shape_util.js';
import { dimProduct, elementOp } from './symbolic.js';

const kMaxElements = 64;
const kIntegerTypes = new Set(['int64', 'int32', 'bool']);
const kPassThrough = new Set(['Identity', 'Reshape', 'Squeeze', 'Unsqueeze', 'Flatten']);
const kArithmetic = new Set(['Add', 'Sub', 'Mul', 'Div', 'Mod', 'Min', 'Max', 'Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual']);

/** The elements of `t` (a value of the conversion), or undefined when nothing is known. */
export function elementsOf(t) {
  if (!t) return undefined;
  if (t.data) return t.shape.length <= 1 && t.data.length <= kMaxElements ? Array.from(t.data) : undefined;
  return t.elements;
}

const constantList = (t) => {
  const e = elementsOf(t);
  return e && e.every((v) => typeof v === 'number') ? e : undefined;
};

// Element-wise `fn` over lists broadcast like 1-D tensors (a length-1 list repeats).
function zipWith(lists, fn) {
  const length = Math.max(...lists.map((l) => l.length));
  if (lists.some((l) => l.length !== 1 && l.length !== length)) return undefined;
  return Array.from({ length }, (_, i) => fn(...lists.map((l) => l[l.length === 1 ? 0 : i])));
}

function compute(node, ins, out) {
  const [x] = ins;
  const op = node.op;
  if (op === 'Shape') {
    const [start, end] = shapeRange(node.attrs, x.shape.length);
    return x.shape.slice(start, end);
  }
  if (op === 'Size') return [dimProduct(x.shape)];
  const first = elementsOf(x);
  if (kPassThrough.has(op)) return first;
  if (op === 'Cast' && kIntegerTypes.has(x.dtype)) {
    // To bool a symbol (>= 1) is true; to int32 or int64 every value stays.
    return out.dtype === 'bool' ? first?.map((v) => (v === null ? null : typeof v === 'number' ? +(v !== 0) : 1)) : first;
  }
  if (op === 'Gather') {
    const indices = constantList(ins[1]);
    if (!first || !indices || x.shape.length !== 1) return undefined;
    normalizeAxis(node.attrs.axis ?? 0, 1);
    const n = first.length;
    return indices.map((i) => first[i < 0 ? i + n : i]);
  }
  if (op === 'Slice') {
    const [starts, ends, axes, steps] = [1, 2, 3, 4].map((i) => (ins[i] ? constantList(ins[i]) : null));
    if (!first || !starts || !ends || axes === undefined || steps === undefined) return undefined;
    const [range] = sliceRanges([first.length], starts, ends, axes ?? undefined, steps ?? undefined);
    return Array.from({ length: range.count }, (_, j) => first[range.start + j * range.step]);
  }
  if (op === 'Concat') {
    const lists = ins.filter(Boolean).map(elementsOf);
    return lists.every(Boolean) ? lists.flat() : undefined;
  }
  if (kArithmetic.has(op)) {
    const lists = ins.map(elementsOf);
    return lists.every(Boolean) ? zipWith(lists, (a, b) => elementOp(op, a, b)) : undefined;
  }
  if (op === 'Not') return first?.map((v) => (typeof v === 'number' ? +!v : null));
  if (op === 'Where') {
    const lists = ins.map(elementsOf);
    if (!lists.every(Boolean)) return undefined;
    return zipWith(lists, (c, a, b) => (typeof c === 'number' ? (c ? a : b) : a === b ? a : null));
  }
  if ((op === 'ReduceProd' || op === 'ReduceSum' || op === 'ReduceMax' || op === 'ReduceMin') && first && out.shape.length <= 1) {
    if (x.shape.length !== 1 || (ins[1] && !constantList(ins[1]))) return undefined;
    if (op === 'ReduceProd') return [dimProduct(first)];
    const pairwise = { ReduceSum: 'Add', ReduceMax: 'Max', ReduceMin: 'Min' }[op];
    return [first.reduce((a, b) => elementOp(pairwise, a, b))];
  }
  return undefined;
}

/**
 * The elements of each output of `node` given its inputs and inferred outputs, or undefined
 * when they are unknown (only integer and bool tensors of rank <= 1 carry elements).
 */
export function outputElements(node, ins, outs) {
  const out = outs[0];
  if (outs.length !== 1 || !kIntegerTypes.has(out.dtype) || out.shape.length > 1) return undefined;
  const length = out.shape.length === 0 ? 1 : out.shape[0];
  if (typeof length !== 'number' || length > kMaxElements) return undefined;
  let elements;
  try {
    elements = compute(node, ins, out);
  } catch {
    return undefined;  // malformed parameters: shape inference reports them
  }
  if (!elements || elements.length !== length) return undefined;
  if (elements.every((v) => v === null)) return undefined;
  return [elements.map((v) => (v === undefined ? null : v))];
}

/** True when every element is a number (the tensor is a constant). */
export const isConstantList = (elements) => elements.every((v) => typeof v === 'number');
