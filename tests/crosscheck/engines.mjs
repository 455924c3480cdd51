// Running one model in Tessera (the native CLI) and in onnxruntime-node on the same input,
// for the cross-checks of converted ONNX models and exported zoo models.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ort from 'onnxruntime-node';

export { product, randomInput, relativeError, textPage } from './tensors.mjs';

export const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const CLI = process.env.TESSERA_CLI ?? path.join(REPO, 'build/tessera');
export const ZOO = process.env.TESSERA_ZOO ?? path.join(REPO, 'build/models/tessera-zoo');

const kArrays = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, bool: Uint8Array, uint8: Uint8Array };

/**
 * Runs a Tessera model file on typed inputs { name: { type, dims, data } } (dims, when given,
 * are bound with --shape; without them the declared ones apply); returns { name: { dims,
 * dtype, data } } with data in its dtype's array.
 */
export function runTesseraFeeds(jsonPath, feeds, threads = 2) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-crosscheck-'));
  try {
    const args = ['run', jsonPath, '--output-dir', work, '--threads', String(threads)];
    for (const [name, { dims, data }] of Object.entries(feeds)) {
      const file = path.join(work, `input-${Object.keys(feeds).indexOf(name)}.bin`);
      fs.writeFileSync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      args.push('--input', `${name}=${file}`);
      if (dims) args.push('--shape', `${name}=${dims.join('x')}`);
    }
    execFileSync(CLI, args);
    const outputs = {};
    for (const o of JSON.parse(fs.readFileSync(path.join(work, 'outputs.json'), 'utf8')).outputs) {
      const bytes = fs.readFileSync(path.join(work, o.file));
      const Array = kArrays[o.dtype];
      const copy = new Uint8Array(bytes).buffer;  // aligned for the typed view
      outputs[o.name] = { dims: o.dims, dtype: o.dtype, data: new Array(copy, 0, bytes.byteLength / Array.BYTES_PER_ELEMENT) };
    }
    return outputs;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Runs ONNX bytes in onnxruntime-node (2 intra-op threads) on typed feeds { name: { type, dims, data } }. */
export async function runOnnxruntimeFeeds(onnxBytes, feeds) {
  const session = await ort.InferenceSession.create(onnxBytes, { intraOpNumThreads: 2, interOpNumThreads: 1 });
  const inputs = Object.fromEntries(Object.entries(feeds).map(([name, { type, dims, data }]) => [name, new ort.Tensor(type, data, dims)]));
  const results = await session.run(inputs);
  const outputs = {};
  for (const [name, tensor] of Object.entries(results)) outputs[name] = { dims: tensor.dims.map(Number), dtype: tensor.type, data: tensor.data };
  await session.release();
  return outputs;
}

/** Runs a Tessera model file with one float32 input at its declared dims; returns { name: { dims, dtype, data } }. */
export function runTessera(jsonPath, inputName, input, threads = 2) {
  return runTesseraFeeds(jsonPath, { [inputName]: { type: 'float32', data: input } }, threads);
}

/** Runs ONNX bytes in onnxruntime-node (2 intra-op threads) with one float32 input. */
export function runOnnxruntime(onnxBytes, inputName, dims, input) {
  return runOnnxruntimeFeeds(onnxBytes, { [inputName]: { type: 'float32', dims, data: input } });
}
