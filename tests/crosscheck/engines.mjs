// Running one model in Tessera (the native CLI) and in onnxruntime-node on the same input,
// for the cross-checks of converted ONNX models and exported zoo models.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ort from 'onnxruntime-node';

export const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const CLI = process.env.TESSERA_CLI ?? path.join(REPO, 'build/tessera');
export const ZOO = process.env.TESSERA_ZOO ?? path.join(REPO, 'build/models/tessera-zoo');

/** Uniform values in [-1, 1) from a fixed LCG: the same input for both engines. */
export function randomInput(count, seed) {
  const values = new Float32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values[i] = (state >>> 8) / (1 << 24) * 2 - 1;
  }
  return values;
}

export const product = (dims) => dims.reduce((a, b) => a * b, 1);

/**
 * A normalised NCHW "page": white background with dark glyph-like blocks on text lines,
 * so that OCR models produce confident outputs (on noise, PP-OCR's detector outputs
 * probabilities near 0, and relative comparisons measure only rounding).
 */
export function textPage([n, c, h, w]) {
  const values = new Float32Array(n * c * h * w);
  const lineHeight = Math.max(16, Math.floor(h / 16));
  for (let i = 0; i < n * c; ++i) {
    for (let y = 0; y < h; ++y) {
      const line = Math.floor(y / lineHeight);
      const inLine = y % lineHeight >= lineHeight * 0.3 && y % lineHeight < lineHeight * 0.7;
      for (let x = 0; x < w; ++x) {
        const glyph = inLine && (x * 7 + line * 13) % 23 < 9 && x > w * 0.06 && x < w * 0.94;
        values[(i * h + y) * w + x] = glyph ? -1.8 : 2.0;
      }
    }
  }
  return values;
}

/** Runs a Tessera model file with one input; returns { name: { dims, data } }. */
export function runTessera(jsonPath, inputName, input, threads = 2) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-crosscheck-'));
  try {
    const inputFile = path.join(work, 'input.bin');
    fs.writeFileSync(inputFile, Buffer.from(input.buffer, input.byteOffset, input.byteLength));
    execFileSync(CLI, ['run', jsonPath, '--input', `${inputName}=${inputFile}`, '--output-dir', work,
      '--threads', String(threads)]);
    const outputs = {};
    for (const o of JSON.parse(fs.readFileSync(path.join(work, 'outputs.json'), 'utf8')).outputs) {
      const bytes = fs.readFileSync(path.join(work, o.file));
      outputs[o.name] = { dims: o.dims, data: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4) };
    }
    return outputs;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Runs ONNX bytes in onnxruntime-node (2 intra-op threads) with one input. */
export async function runOnnxruntime(onnxBytes, inputName, dims, input) {
  const session = await ort.InferenceSession.create(onnxBytes, { intraOpNumThreads: 2, interOpNumThreads: 1 });
  const results = await session.run({ [inputName]: new ort.Tensor('float32', input, dims) });
  const outputs = {};
  for (const [name, tensor] of Object.entries(results)) outputs[name] = { dims: tensor.dims, data: tensor.data };
  await session.release();
  return outputs;
}

/** max |a - b| over all elements divided by max |b|. */
export function relativeError(actual, expected) {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < expected.length; ++i) {
    diff = Math.max(diff, Math.abs(actual[i] - expected[i]));
    scale = Math.max(scale, Math.abs(expected[i]));
  }
  return diff / Math.max(scale, 1e-30);
}
