// The graph's boundary: fixing dynamic input dimensions from the caller's shapes, and
// checking inferred output shapes against the ones the model declares.
import { ConvertError } from './errors.js';

function shapeHint(name, dims) {
  return `inputShapes { ${JSON.stringify(name)}: [...] } (CLI: --input-shape ${name}=${dims.map((d) => (typeof d === 'number' && d > 0 ? d : '?')).join('x')})`;
}

/**
 * Static shapes of the graph inputs: declared dimensions, with dynamic ones taken from
 * `inputShapes` ({ name: [dims] }). Every problem names the input and the dimension.
 */
export function fixInputShapes(inputs, inputShapes = {}) {
  for (const name of Object.keys(inputShapes)) {
    if (!inputs.some((i) => i.name === name)) {
      throw new ConvertError(`inputShapes names "${name}", which is not a graph input (inputs: ${inputs.map((i) => `"${i.name}"`).join(', ')})`);
    }
  }
  return inputs.map(({ name, dtype, dims }) => {
    if (dtype !== 'float32') throw new ConvertError(`graph input "${name}" has type ${dtype}; Tessera's graph inputs are float32`);
    const given = inputShapes[name];
    if (given) {
      if (!Array.isArray(given) || given.length === 0 || !given.every((d) => Number.isInteger(d) && d > 0)) {
        throw new ConvertError(`inputShapes["${name}"] must be a list of positive integers, got ${JSON.stringify(given)}`);
      }
      if (dims) {
        if (dims.length !== given.length) {
          throw new ConvertError(`graph input "${name}" has rank ${dims.length}, but its given shape [${given}] has rank ${given.length}`);
        }
        dims.forEach((d, i) => {
          if (typeof d === 'number' && d > 0 && d !== given[i]) {
            throw new ConvertError(`graph input "${name}": dimension ${i} is ${d} in the model, but the given shape [${given}] says ${given[i]}`);
          }
        });
      }
      return { name, shape: [...given] };
    }
    if (!dims) throw new ConvertError(`graph input "${name}" has no declared shape; give it with ${shapeHint(name, [])}`);
    const dynamic = dims.map((d, i) => [d, i]).filter(([d]) => !(typeof d === 'number' && d > 0));
    if (dynamic.length) {
      const list = dynamic.map(([d, i]) => (d ? `${i} ("${d}")` : `${i}`)).join(', ');
      throw new ConvertError(`graph input "${name}" has dynamic dimension${dynamic.length > 1 ? 's' : ''} ${list}; fix ${dynamic.length > 1 ? 'them' : 'it'} with ${shapeHint(name, dims)}`);
    }
    return { name, shape: [...dims] };
  });
}

/** Checks an inferred output shape against the model's declaration (static dims must agree). */
export function checkOutputShape(output, shape) {
  if (!output.dims) return;
  const mismatch = output.dims.length !== shape.length ||
    output.dims.some((d, i) => typeof d === 'number' && d > 0 && d !== shape[i]);
  if (mismatch) {
    const declared = output.dims.map((d) => (typeof d === 'number' && d > 0 ? d : d || '?')).join(', ');
    throw new ConvertError(`graph output "${output.name}" is declared as [${declared}] but computes [${shape}]`);
  }
}
