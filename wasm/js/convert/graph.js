// The conversion pass: walks the ONNX nodes in dependency order, normalises each, folds
// what is constant, infers the shapes of what runs, and collects every problem into one error.
import { checkOutputShape, fixInputShapes } from './boundary.js';
import { ConvertError } from './errors.js';
import { canEvaluate, evaluate } from './fold.js';
import { UniqueNames } from './names.js';
import { checkAttributeTypes, engineAttributes, isEngineOp, shapeInputs } from './ops.js';
import { constantNodeValue, kRewrittenOps, normalizeNode } from './opset.js';
import { hasShapeFunction, inferShapes } from './shape_inference.js';
import { isFloatType, numel, tensorFrom } from './tensor.js';

// Ops that only move or relabel data: folding them never makes the weights larger.
const kDataMovement = new Set(['Identity', 'Cast', 'Reshape', 'Flatten', 'Squeeze', 'Unsqueeze', 'Transpose', 'Slice', 'Gather', 'Concat', 'Split']);
// Float computations on constants larger than this are left to the engine, which folds them itself.
const kFoldFloatLimit = 4096;
const kUnknown = Object.freeze({ unknown: true });
const kMaxProblemLines = 20;

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

function unsupportedMessage(unsupported, runtimeOnly) {
  const counts = [...unsupported].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  let text = `unsupported ops: ${counts.map(([op, n]) => `${op} x${n}`).join(', ')}`;
  if (runtimeOnly.size) {
    text += `\n(${[...runtimeOnly].join(', ')} ${runtimeOnly.size > 1 ? 'fold' : 'folds'} into constants only when every input is constant; here ${runtimeOnly.size > 1 ? 'they compute' : 'it computes'} on run-time tensors)`;
  }
  return text;
}

/**
 * Converts a decoded ONNX model (decode.js) into Tessera's graph:
 * { inputs: [{name, shape}], outputs: [{name, shape}], nodes, constants: Map(name -> tensor) }
 * with only engine ops left, every shape static, and nothing dead.
 */
export function convertGraph(model, { inputShapes } = {}) {
  const values = new Map(model.constants);
  const inputs = fixInputShapes(model.inputs, inputShapes);
  for (const input of inputs) values.set(input.name, { dtype: 'float32', shape: input.shape });
  const nodes = nameNodes(model.nodes);
  const order = topologicalOrder(nodes, new Set(values.keys()));
  const used = new Set([...nodes.flatMap((n) => n.inputs), ...model.outputs.map((o) => o.name)]);
  const tensorNames = new UniqueNames([...values.keys(), ...nodes.flatMap((n) => n.outputs)]);
  const nodeNames = new UniqueNames(nodes.map((n) => n.name));
  const unsupported = new Map();
  const runtimeOnly = new Set();
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
    if (!engine && !(node.domain === '' && hasShapeFunction(node.op) && canEvaluate(node.op))) {
      countUnsupported(node);
      return markUnknown(node);
    }
    const constant = ins.every((t) => !t || t.data) || node.op === 'Shape' || node.op === 'Size';
    if (!engine && !constant) {
      countUnsupported(node);
      runtimeOnly.add(node.op);
      return markUnknown(node);
    }
    if (engine) checkAttributeTypes(node);
    const outs = inferShapes(node, ins);
    const fold = constant && canEvaluate(node.op) && (!engine || kDataMovement.has(node.op) ||
      outs.some((o) => o.dtype !== 'float32') || outs.every((o) => numel(o.shape) <= kFoldFloatLimit));
    if (fold) {
      evaluate(node, ins, outs).forEach((t, i) => node.outputs[i] && values.set(node.outputs[i], t));
      return undefined;
    }
    outs.forEach((o) => {
      if (o.dtype !== 'float32') throw new ConvertError(`computes a run-time ${o.dtype} tensor; Tessera computes float32 only`);
      if (o.shape.includes(0)) throw new ConvertError(`computes an empty tensor [${o.shape}]; Tessera's dimensions are positive`);
    });
    for (const i of shapeInputs(node.op)) {
      if (ins[i] && !ins[i].data) throw new ConvertError(`input ${i} ("${node.inputs[i]}") must be a constant, but it is computed at run time`);
    }
    const attrs = engineAttributes(node);
    kept.push({ ...node, attrs });
    outs.forEach((o, i) => node.outputs[i] && values.set(node.outputs[i], o));
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
      if (!isFloatType(value.dtype)) {
        throw new ConvertError(`has type ${value.dtype}; Tessera's graph outputs are float32`);
      }
      checkOutputShape(output, value.shape);
      if (value.data) {
        // An output computed from constants alone: an Identity reads it from an initializer.
        const source = ctx.addConstant(`${output.name}_value`, value);
        values.set(output.name, { dtype: 'float32', shape: value.shape });
        kept.push({ op: 'Identity', domain: '', name: nodeNames.unique(`${output.name}_identity`), inputs: [source], outputs: [output.name], attrs: {} });
      }
      outputs.push({ name: output.name, shape: value.shape });
    } catch (e) {
      if (!(e instanceof ConvertError)) throw e;
      problems.push(e.message.startsWith('graph output') ? e.message : `graph output "${output.name}" ${e.message}`);
    }
  }

  if (unsupported.size || problems.length) {
    const lines = unsupported.size ? [unsupportedMessage(unsupported, runtimeOnly)] : [];
    lines.push(...problems.slice(0, kMaxProblemLines));
    if (problems.length > kMaxProblemLines) lines.push(`... and ${problems.length - kMaxProblemLines} more problems`);
    throw new ConvertError(lines.join('\n'));
  }
  return { inputs, outputs, ...liveGraph(kept, outputs, values) };
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
  const constants = new Map();
  for (const node of kept) {
    node.inputs.forEach((name, i) => {
      const t = name && values.get(name);
      if (!t?.data || constants.has(name)) return;
      if (!isFloatType(t.dtype) && !shapeInputs(node.op).includes(i)) {
        // Pow's exponent may be an integer type; its value as float32 means the same.
        if (node.op === 'Pow' && i === 1) {
          const asFloat = `${name}_as_float`;
          constants.set(asFloat, tensorFrom('float32', t.shape, t.data));
          node.inputs[i] = asFloat;
          return;
        }
        throw new ConvertError(`${label(node)}: input ${i} ("${name}") is a constant ${t.dtype} tensor; Tessera takes integer constants only as shape-like inputs`);
      }
      constants.set(name, t);
    });
  }
  return { nodes: kept, constants };
}
