// The conversion pass: walks the ONNX nodes in dependency order, normalises each, folds
// what is constant, infers the (possibly symbolic) shapes of what runs, and collects every
// problem into one error.
import { boundaryInputs, kModelTypes, outputShape } from './boundary.js';
import { isConstantList, outputElements } from './elements.js';
import { ConvertError } from './errors.js';
import { canEvaluate, evaluate } from './fold.js';
import { UniqueNames } from './names.js';
import { checkAttributeTypes, engineAttributes, isEngineOp, kEngineOps, shapeInputs } from './ops.js';
import { constantNodeValue, kRewrittenOps, normalizeNode } from './opset.js';
import { hasShapeFunction, inferShapes } from './shape_inference.js';
import { formatShape, isStaticShape, isSymbol } from './symbolic.js';
import { isFloatType, numel, tensorFrom } from './tensor.js';

// Ops that only move or relabel data: folding them never makes the weights larger.
const kDataMovement = new Set(['Identity', 'Cast', 'Reshape', 'Flatten', 'Squeeze', 'Unsqueeze', 'Transpose', 'Slice', 'Gather', 'Concat', 'Split']);
// Float computations on constants larger than this are left to the engine, which folds them itself.
const kFoldFloatLimit = 4096;
const kUnknown = Object.freeze({ unknown: true });
const kMaxProblemLines = 20;

// A value the engine knows when it specialises the model: a constant, or computed from
// constants and input shapes only.
const isKnown = (t) => Boolean(t && (t.data || t.known));

// Whether some model could convert `node`: an engine op, a foldable op, or a rewritten one.
function isConvertible(node) {
  if (isEngineOp(node.op, node.domain)) return true;
  return node.domain === '' && (node.op === 'Constant' || kRewrittenOps.has(node.op) || canEvaluate(node.op));
}

function label(node) {
  return `node "${node.name}" (${node.op})`;
}

// Names nameless nodes `<op>_<index>` and makes duplicates unique.
function nameNodes(nodes) {
  const names = new UniqueNames();
  return nodes.map((node, index) => ({ ...node, name: names.unique(node.name || `${node.op}_${index}`) }));
}

// Nodes in dependency order (ONNX requires it already; tolerate models that break the rule).
function topologicalOrder(nodes, defined) {
  const producer = new Map();
  for (const node of nodes) {
    for (const out of node.outputs) {
      if (!out) continue;
      if (producer.has(out) || defined.has(out)) throw new ConvertError(`tensor "${out}" is defined twice`);
      producer.set(out, node);
    }
  }
  const state = new Map();  // node -> 1 (visiting) | 2 (done)
  const order = [];
  for (const root of nodes) {
    const stack = [[root, 0]];
    while (stack.length) {
      const top = stack.at(-1);
      const [node, next] = top;
      if (next === 0) {
        if (state.get(node) === 2) { stack.pop(); continue; }
        state.set(node, 1);
      }
      if (next < node.inputs.length) {
        top[1] += 1;
        const name = node.inputs[next];
        if (!name || defined.has(name)) continue;
        const dep = producer.get(name);
        if (!dep) throw new ConvertError(`${label(node)}: input "${name}" is not a graph input, initializer or node output`);
        if (state.get(dep) === 1) throw new ConvertError(`${label(node)} is part of a cycle`);
        if (state.get(dep) !== 2) stack.push([dep, 0]);
        continue;
      }
      state.set(node, 2);
      order.push(node);
      stack.pop();
    }
  }
  return order;
}

function unsupportedMessage(unsupported) {
  const counts = [...unsupported].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return `unsupported ops: ${counts.map(([op, n]) => `${op} x${n}`).join(', ')}`;
}

/**
 * Converts a decoded ONNX model (decode.js) into Tessera's graph:
 * { version, inputs: [{name, dtype, shape}], outputs: [{name, dtype, shape}], nodes,
 *   constants: Map(name -> tensor in the dtype it is stored as) } with only engine ops left
 * and nothing dead. Dimensions are numbers or symbols; `version` is the format version the
 * graph needs.
 */
export function convertGraph(model, { inputShapes } = {}) {
  const values = new Map(model.constants);
  const { inputs, bindings } = boundaryInputs(model.inputs, inputShapes);
  for (const input of inputs) values.set(input.name, { dtype: input.dtype, shape: input.shape });
  const inputSymbols = new Set(inputs.flatMap((i) => i.shape.filter(isSymbol)));
  // Fresh symbols avoid every name the model uses for a dimension.
  const symbols = new UniqueNames([...inputSymbols, ...model.outputs.flatMap((o) => (o.dims ?? []).filter(isSymbol))]);
  const fresh = (hint) => symbols.unique(hint);
  const nodes = nameNodes(model.nodes);
  const order = topologicalOrder(nodes, new Set(values.keys()));
  const used = new Set([...nodes.flatMap((n) => n.inputs), ...model.outputs.map((o) => o.name)]);
  const tensorNames = new UniqueNames([...values.keys(), ...nodes.flatMap((n) => n.outputs)]);
  const nodeNames = new UniqueNames(nodes.map((n) => n.name));
  const unsupported = new Map();
  const problems = [];
  const kept = [];

  const countUnsupported = (node) => {
    const op = node.domain ? `${node.domain}.${node.op}` : node.op;
    unsupported.set(op, (unsupported.get(op) ?? 0) + 1);
  };
  const markUnknown = (node) => node.outputs.forEach((o) => o && values.set(o, kUnknown));
  const ctx = {
    opset: model.opset,
    value: (name) => values.get(name),
    isUsed: (name) => used.has(name),
    uniqueTensorName: (hint) => tensorNames.unique(hint),
    uniqueNodeName: (hint) => nodeNames.unique(hint),
    addConstant: (hint, tensor) => {
      const name = tensorNames.unique(hint);
      values.set(name, tensor);
      return name;
    },
  };

  // One normalised node: fold it, keep it for the engine, or record why neither works.
  const place = (node) => {
    const ins = node.inputs.map((name) => (name ? values.get(name) : null));
    const engine = isEngineOp(node.op, node.domain);
    const constant = ins.every((t) => !t || t.data);
    if (!engine && !(node.domain === '' && hasShapeFunction(node.op) && canEvaluate(node.op) && constant)) {
      countUnsupported(node);
      return markUnknown(node);
    }
    if (engine) {
      checkAttributeTypes(node);
      for (const i of shapeInputs(node.op)) {
        if (ins[i] && !isKnown(ins[i])) {
          throw new ConvertError(`input ${i} ("${node.inputs[i]}") must be known when the model is specialised (computed from constants and input shapes), but it depends on input data`);
        }
      }
    }
    const outs = inferShapes(node, ins, fresh);
    const fold = constant && canEvaluate(node.op) && (!engine || kDataMovement.has(node.op) ||
      outs.some((o) => o.dtype !== 'float32') || outs.every((o) => numel(o.shape) <= kFoldFloatLimit));
    if (fold) {
      evaluate(node, ins, outs).forEach((t, i) => node.outputs[i] && values.set(node.outputs[i], t));
      return undefined;
    }
    // Shape arithmetic whose every element is a number is a constant after all.
    const elements = outputElements(node, ins, outs);
    if (elements && isConstantList(elements[0]) && isStaticShape(outs[0].shape)) {
      values.set(node.outputs[0], tensorFrom(outs[0].dtype, outs[0].shape, elements[0]));
      return undefined;
    }
    outs.forEach((o) => {
      if (!kModelTypes.includes(o.dtype)) throw new ConvertError(`computes a run-time ${o.dtype} tensor; Tessera computes ${kModelTypes.join(', ')}`);
      if (o.shape.includes(0)) throw new ConvertError(`computes an empty tensor ${formatShape(o.shape)}; Tessera's dimensions are positive`);
    });
    const attrs = engineAttributes(node);
    kept.push({ ...node, attrs });
    const known = node.op === 'Shape' || node.op === 'Size' || ins.every((t) => !t || isKnown(t));
    outs.forEach((o, i) => {
      if (!node.outputs[i]) return;
      const value = { ...o };
      if (known) value.known = true;
      if (elements?.[i]) value.elements = elements[i];
      values.set(node.outputs[i], value);
    });
    return undefined;
  };

  for (const node of order) {
    if (node.inputs.some((name) => name && values.get(name) === kUnknown)) {
      // Downstream of a problem: count it only if it could never be converted.
      if (!isConvertible(node)) countUnsupported(node);
      markUnknown(node);
      continue;
    }
    try {
      if (node.op === 'Constant' && node.domain === '') {
        values.set(node.outputs[0], constantNodeValue(node));
        continue;
      }
      normalizeNode(node, ctx).forEach(place);
    } catch (e) {
      if (!(e instanceof ConvertError)) throw e;
      problems.push(`${label(node)}: ${e.message}`);
      markUnknown(node);
    }
  }

  const outputs = [];
  for (const output of model.outputs) {
    const value = values.get(output.name);
    try {
      if (value === kUnknown) continue;
      if (!value) throw new ConvertError('is not computed by the graph');
      // Float constants are float32 in Tessera (float16/float64 initializers are converted).
      const dtype = isFloatType(value.dtype) && value.data ? 'float32' : value.dtype;
      if (!kModelTypes.includes(dtype)) {
        throw new ConvertError(`has type ${value.dtype}; Tessera's graph outputs are ${kModelTypes.join(', ')}`);
      }
      const shape = outputShape(output, value.shape, inputSymbols, bindings);
      if (value.data) {
        // An output computed from constants alone: an Identity reads it from an initializer.
        const source = ctx.addConstant(`${output.name}_value`, value);
        values.set(output.name, { dtype, shape: value.shape });
        kept.push({ op: 'Identity', domain: '', name: nodeNames.unique(`${output.name}_identity`), inputs: [source], outputs: [output.name], attrs: {} });
      }
      outputs.push({ name: output.name, dtype, shape });
    } catch (e) {
      if (!(e instanceof ConvertError)) throw e;
      problems.push(e.message.startsWith('graph output') ? e.message : `graph output "${output.name}" ${e.message}`);
    }
  }

  if (unsupported.size || problems.length) {
    const lines = unsupported.size ? [unsupportedMessage(unsupported)] : [];
    lines.push(...problems.slice(0, kMaxProblemLines));
    if (problems.length > kMaxProblemLines) lines.push(`... and ${problems.length - kMaxProblemLines} more problems`);
    throw new ConvertError(lines.join('\n'));
  }
  const graph = { inputs, outputs, ...liveGraph(kept, outputs, values) };
  return { ...graph, version: formatVersion(graph, values) };
}

// Integer inputs whose exact integer type does not matter (indices), like shape-like inputs.
const kIndexInputs = { Gather: 1, GatherElements: 1 };
const isIndexLike = (op, i) => shapeInputs(op).includes(i) || kIndexInputs[op] === i;
const kStoredIntegerTypes = new Set(['int64', 'int32', 'bool', 'uint8']);

// The dtype a constant is stored as: float32 for floats; int64 for integers that only feed
// shape-like or index inputs; otherwise its own type, which must be one the format stores.
function storedDtype(name, t, dataUse) {
  if (isFloatType(t.dtype)) return 'float32';
  if (!dataUse) return 'int64';
  if (!kStoredIntegerTypes.has(t.dtype)) {
    throw new ConvertError(`${label(dataUse)}: input "${name}" is a constant ${t.dtype} tensor; Tessera stores float32, int64, int32, bool and uint8 data`);
  }
  return t.dtype;
}

// Keeps the nodes the outputs depend on and the constants those nodes read.
function liveGraph(nodes, outputs, values) {
  const producer = new Map();
  nodes.forEach((n) => n.outputs.forEach((o) => producer.set(o, n)));
  const live = new Set();
  const pending = outputs.map((o) => o.name);
  while (pending.length) {
    const node = producer.get(pending.pop());
    if (!node || live.has(node)) continue;
    live.add(node);
    pending.push(...node.inputs.filter(Boolean));
  }
  const kept = nodes.filter((n) => live.has(n));
  const dataUses = new Map();  // constant name -> a node reading it as data
  for (const node of kept) {
    node.inputs.forEach((name, i) => {
      const t = name && values.get(name);
      if (!t?.data) return;
      if (!isFloatType(t.dtype) && node.op === 'Pow' && i === 1) {
        // Pow's exponent may be an integer type; its value as float32 means the same.
        const asFloat = `${name}_as_float`;
        values.set(asFloat, tensorFrom('float32', t.shape, t.data));
        node.inputs[i] = asFloat;
      } else if (!isIndexLike(node.op, i) && !dataUses.has(name)) {
        dataUses.set(name, node);
      }
    });
  }
  const constants = new Map();
  for (const node of kept) {
    for (const name of node.inputs) {
      const t = name && values.get(name);
      if (!t?.data || constants.has(name)) continue;
      const dtype = storedDtype(name, t, dataUses.get(name));
      constants.set(name, dtype === t.dtype ? t : { ...t, dtype });
    }
  }
  return { nodes: kept, constants };
}

/**
 * The format version `graph` needs: 1 when it uses nothing version 2 added (static float32
 * boundaries, float32 run-time tensors, float32/int64/int32 initializers with integers only
 * as constant shape-like inputs or Gather indices, no tensor attributes, no version-2 ops).
 */
function formatVersion({ inputs, outputs, nodes, constants }, values) {
  const boundary = [...inputs, ...outputs].some((t) => t.dtype !== 'float32' || !isStaticShape(t.shape));
  const stored = [...constants.values()].some((t) => !['float32', 'int64', 'int32'].includes(t.dtype));
  // Version 1 reads shape-like inputs and Gather indices from constants only, and integer
  // constants nowhere else.
  const v2Input = (node, name, i) => {
    if (!name) return false;
    const constant = constants.get(name);
    if (shapeInputs(node.op).includes(i) || (node.op === 'Gather' && i === 1)) return !constant;
    return constant !== undefined && constant.dtype !== 'float32';
  };
  const v2Node = (node) => kEngineOps[node.op].since > 1 ||
    Object.values(node.attrs).some((v) => v?.tensor) ||
    node.outputs.some((o) => values.get(o)?.dtype !== 'float32') ||
    node.inputs.some((name, i) => v2Input(node, name, i));
  return boundary || stored || nodes.some(v2Node) ? 2 : 1;
}
