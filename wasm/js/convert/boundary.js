// The graph's boundary: input types and shapes (symbolic dimensions kept as symbols, or
// pinned from the caller's shapes), and the declared shapes of the outputs.
import { ConvertError } from './errors.js';
import { UniqueNames } from './names.js';
import { formatShape, isSymbol } from './symbolic.js';

/** The data types of the format's graph inputs, outputs and run-time tensors. */
export const kModelTypes = ['float32', 'int64', 'int32', 'bool', 'uint8'];

const isFixed = (d) => typeof d === 'number' && d > 0;

/**
 * The graph inputs as { name, dtype, shape }: declared dimensions, symbols for dim_params
 * (a dimension with neither value nor name gets "<input>_d<i>"), and `inputShapes`
 * ({ name: [dims] }, [] for a scalar) pinning every dimension of an input. A dim_param pinned in one input
 * is pinned wherever it appears. Returns { inputs, bindings: Map(symbol -> number) }.
 */
export function boundaryInputs(inputs, inputShapes = {}) {
  for (const name of Object.keys(inputShapes)) {
    if (!inputs.some((i) => i.name === name)) {
      throw new ConvertError(`inputShapes names "${name}", which is not a graph input (inputs: ${inputs.map((i) => `"${i.name}"`).join(', ')})`);
    }
  }
  const bindings = new Map();
  for (const { name, dtype, dims } of inputs) {
    if (!kModelTypes.includes(dtype)) {
      throw new ConvertError(`graph input "${name}" has type ${dtype}; Tessera's graph inputs are ${kModelTypes.join(', ')}`);
    }
    const given = inputShapes[name];
    if (!given) continue;
    if (!Array.isArray(given) || !given.every((d) => Number.isInteger(d) && d > 0)) {
      throw new ConvertError(`inputShapes["${name}"] must be a list of positive integers, got ${JSON.stringify(given)}`);
    }
    if (!dims) continue;
    if (dims.length !== given.length) {
      throw new ConvertError(`graph input "${name}" has rank ${dims.length}, but its given shape [${given}] has rank ${given.length}`);
    }
    dims.forEach((d, i) => {
      if (isFixed(d) && d !== given[i]) {
        throw new ConvertError(`graph input "${name}": dimension ${i} is ${d} in the model, but the given shape [${given}] says ${given[i]}`);
      }
      if (!isSymbol(d) || !d) return;
      const bound = bindings.get(d);
      if (bound !== undefined && bound !== given[i]) {
        throw new ConvertError(`dimension "${d}" is pinned to ${bound} and to ${given[i]} (graph input "${name}")`);
      }
      bindings.set(d, given[i]);
    });
  }
  const symbols = new UniqueNames(inputs.flatMap((i) => (i.dims ?? []).filter((d) => isSymbol(d) && d)));
  const result = inputs.map(({ name, dtype, dims }) => {
    const given = inputShapes[name];
    if (given) return { name, dtype, shape: [...given] };
    if (!dims) {
      throw new ConvertError(`graph input "${name}" has no declared shape; give it with inputShapes { ${JSON.stringify(name)}: [...] } (CLI: --input-shape ${name}=...)`);
    }
    const shape = dims.map((d, i) => {
      if (isFixed(d)) return d;
      if (isSymbol(d) && d) return bindings.get(d) ?? d;
      return symbols.unique(`${name}_d${i}`);
    });
    return { name, dtype, shape };
  });
  return { inputs: result, bindings };
}

/**
 * The shape a graph output declares, from the inferred `shape` and the ONNX declaration
 * `output.dims`: a number wherever either is a number (they must agree), an inferred input
 * symbol (exact: the engine checks it), else the model's dim_param, else the inferred symbol.
 */
export function outputShape(output, shape, inputSymbols, bindings) {
  if (!output.dims) return shape;
  const declared = output.dims.map((d) => (isSymbol(d) && bindings.has(d) ? bindings.get(d) : d));
  const mismatch = declared.length !== shape.length ||
    declared.some((d, i) => isFixed(d) && typeof shape[i] === 'number' && d !== shape[i]);
  if (mismatch) {
    const text = declared.map((d) => (isFixed(d) ? d : d || '?')).join(', ');
    throw new ConvertError(`graph output "${output.name}" is declared as [${text}] but computes ${formatShape(shape)}`);
  }
  return shape.map((d, i) => {
    if (typeof d === 'number') return d;
    const mine = declared[i];
    if (isFixed(mine)) return mine;
    if (inputSymbols.has(d)) return d;
    return isSymbol(mine) && mine ? mine : d;
  });
}
