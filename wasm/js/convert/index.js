// Public API of the ONNX <-> Tessera converter; plain ESM without Node APIs, so it runs in
// browsers as well as in Node (the CLI does the file I/O).
import { decodeModel } from './decode.js';
import { emitModel, fileStem, stringifyModel } from './emit.js';
import { convertGraph } from './graph.js';
import { kEngineOps } from './ops.js';

export { ConvertError } from './errors.js';
export { exportOnnx } from './export.js';
export { fileStem, stringifyModel };

/** The ONNX op types Tessera runs (docs/model-format.md's operator table). */
export const supportedOps = Object.freeze(Object.keys(kEngineOps));

/**
 * Converts an ONNX model to Tessera's format (docs/model-format.md).
 *
 * @param {Uint8Array} onnxBytes the .onnx file's bytes (self-contained: no external data)
 * @param {object} [options]
 * @param {Object<string, number[]>} [options.inputShapes] pins every dimension of graph
 *   inputs, e.g. `{ x: [1, 3, 640, 640] }`; dynamic dimensions not pinned stay symbols
 *   (format version 2), and a dim_param pinned in one input is pinned in all
 * @param {string} [options.name] the model's name; also names the weights file `<name>.bin`
 *   (default: the ONNX graph's name, else "model")
 * @returns {{ json: object, weights: Uint8Array }} the model JSON object (format version 1
 *   when the model is static float32 with version-1 ops only, else 2) and its weights
 * @throws {ConvertError} for input that is not ONNX, truncated or malformed, input types the
 *   format lacks, unsupported ops (one error listing each op type with its count) and
 *   attributes or shapes Tessera cannot run
 */
export function convertOnnx(onnxBytes, options = {}) {
  const model = decodeModel(onnxBytes);
  const graph = convertGraph(model, { inputShapes: options.inputShapes });
  return emitModel(graph, options.name ?? (model.name || 'model'));
}
