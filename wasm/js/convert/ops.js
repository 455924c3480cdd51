// The operators Tessera accepts, as op_schema.js states them (docs/model-format.md's
// operator table and "Operator schema"): the attributes the loader knows for each, which
// values it supports, which ONNX attributes the converter may drop, and which inputs are
// shape-like.
import { ConvertError } from './errors.js';
import schema from './op_schema.js';

// A schema "drop" entry as a test on the attribute's value: "any" value, or one of a list.
function dropTest(rule) {
  if (rule === 'any') return () => true;
  return (value) => rule.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value));
}

/**
 * Per op: `attrs` (name -> 'int' | 'float' | 'string' | 'ints' | 'floats' | 'tensor'),
 * `values` (supported values of an attribute), `drop` (ONNX attributes absent from the
 * format, with the test that dropping one keeps the op's inference result), `shapeInputs`
 * (inputs that must be known when the model is specialised), `attrInputs` (attributes the
 * latest ONNX opset takes as input i), `outputs` (how many outputs Tessera computes;
 * Infinity for Split's variadic outputs) and `since` (the format version that added the op).
 */
export const kEngineOps = Object.freeze(Object.fromEntries(Object.entries(schema.ops).map(([op, entry]) => [op, Object.freeze({
  doc: entry.doc,
  attrs: entry.attrs ?? {},
  values: entry.values ?? {},
  drop: Object.fromEntries(Object.entries(entry.drop ?? {}).map(([name, rule]) => [name, dropTest(rule)])),
  shapeInputs: entry.shape_inputs ?? [],
  attrInputs: entry.attr_inputs ?? {},
  outputs: entry.outputs === 'variadic' ? Infinity : entry.outputs ?? 1,
  since: entry.since ?? 1,
})])));

/** True when Tessera runs `op` (default ONNX domain). */
export function isEngineOp(op, domain = '') {
  return domain === '' && Object.hasOwn(kEngineOps, op);
}

/** Inputs of `op` that must be known when the model is specialised (shape-like inputs). */
export function shapeInputs(op) {
  return isEngineOp(op) ? kEngineOps[op].shapeInputs : [];
}

// The own property `name` of `object` (attribute names never reach Object.prototype).
function own(object, name) {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

function describe(value) {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

function typeMatches(kind, value) {
  switch (kind) {
    case 'int': return Number.isInteger(value);
    case 'float': return typeof value === 'number';
    case 'string': return typeof value === 'string';
    case 'ints': return Array.isArray(value) && value.every(Number.isInteger);
    case 'floats': return Array.isArray(value) && value.every((v) => typeof v === 'number');
    case 'tensor': return Boolean(value?.tensor);
    default: return false;
  }
}

/** Checks that the attributes of engine node `node` the format lists have the listed types. */
export function checkAttributeTypes(node) {
  for (const [name, value] of Object.entries(node.attrs)) {
    const kind = attributeKind(node.op, name);
    if (kind && !typeMatches(kind, value)) {
      throw new ConvertError(`attribute "${name}" must be ${kind === 'int' ? 'an integer' : `of type ${kind}`}, got ${describe(value)}`);
    }
  }
}

// A tensor attribute (ConstantOfShape's value): one of the format's types, no more than a
// few values (the JSON holds them inline).
function checkTensorAttribute(name, tensor) {
  if (!['float32', 'int64', 'int32', 'bool', 'uint8'].includes(tensor.dtype)) {
    throw new ConvertError(`attribute "${name}" is a ${tensor.dtype} tensor; Tessera's tensor attributes are float32, int64, int32, bool or uint8`);
  }
  if (tensor.data.length > 1024) throw new ConvertError(`attribute "${name}" holds ${tensor.data.length} values; at most 1024 fit in an attribute`);
}

/**
 * The attributes of an engine node as the format lists them: checks supported values, drops
 * ONNX attributes that do not change inference, and rejects the rest.
 */
export function engineAttributes(node) {
  checkAttributeTypes(node);
  const spec = kEngineOps[node.op];
  const out = {};
  for (const [name, value] of Object.entries(node.attrs)) {
    if (attributeKind(node.op, name)) {
      const allowed = own(spec.values, name);
      if (kEngineOps[node.op].attrs[name] === 'tensor') checkTensorAttribute(name, value.tensor);
      if (allowed && !allowed.includes(value)) {
        throw new ConvertError(`attribute "${name}" = ${describe(value)} is not supported (Tessera supports ${allowed.map(describe).join(', ')})`);
      }
      out[name] = value;
    } else if (own(spec.drop, name)) {
      if (!spec.drop[name](value)) throw new ConvertError(`attribute "${name}" = ${describe(value)} is not supported`);
    } else {
      throw new ConvertError(`attribute "${name}" is not supported by Tessera's ${node.op}`);
    }
  }
  return out;
}

/** The ONNX attribute type of `op`'s attribute `name` ('int', 'float', ...). */
export function attributeKind(op, name) {
  return isEngineOp(op) ? own(kEngineOps[op].attrs, name) : undefined;
}

/** Attributes of `op` the latest ONNX opset takes as inputs: { name: input index }. */
export function attributeInputs(op) {
  return kEngineOps[op].attrInputs;
}
