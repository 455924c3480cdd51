// A model with more than 4 GiB of float32 weights in Node: one engine refuses it with the
// out-of-memory error (a WebAssembly instance addresses 4 GiB), and the same model placed over
// wasm workers runs, its output checked against the native CLI's. Too big for the test
// command: run it by hand after scripts/test.sh (or the native and wasm builds), with about
// 20 GiB of memory and 5 GiB of disk free; docs/benchmarks.md records a run.
//
//   node scripts/workers-over-4gib.mjs [--layers 72] [--workers 12] [--worker-memory 1GiB]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

import { createEngine } from '../wasm/js/index.node.js';

const { values } = parseArgs({ options: { layers: { type: 'string', default: '72' },
                                          workers: { type: 'string', default: '12' },
                                          'worker-memory': { type: 'string', default: '1GiB' } } });
const layers = Number(values.layers);
const width = 4096;  // each layer a 4096 x 4096 MatMul: 64 MiB of weights
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-4gib-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const gib = (bytes) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

// x [1, 4096] -> (MatMul, Relu) x layers, He-scaled seeded weights written layer by layer.
function writeModel() {
  const layerBytes = 4 * width * width;
  const json = { format: 'tessera', version: 1, name: `mlp${layers}x${width}`, weights: 'model.bin',
                 inputs: [{ name: 'x', dtype: 'float32', shape: [1, width] }],
                 outputs: [{ name: 'y', dtype: 'float32', shape: [1, width] }], initializers: [], nodes: [] };
  const file = fs.openSync(path.join(dir, 'model.bin'), 'w');
  const values = new Float32Array(width * width);
  const scale = Math.sqrt(6 / width);
  let seed = 12345;
  let input = 'x';
  for (let l = 0; l < layers; ++l) {
    for (let i = 0; i < values.length; ++i) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      values[i] = (seed / 2 ** 32 * 2 - 1) * scale;
    }
    fs.writeSync(file, values);
    json.initializers.push({ name: `w${l}`, dtype: 'float32', shape: [width, width], offset: l * layerBytes,
                             length: layerBytes });
    const last = l === layers - 1;
    json.nodes.push({ op: 'MatMul', name: `fc${l}`, inputs: [input, `w${l}`], outputs: [`fc${l}`] });
    json.nodes.push({ op: 'Relu', name: `relu${l}`, inputs: [`fc${l}`], outputs: [last ? 'y' : `relu${l}`] });
    input = `relu${l}`;
  }
  fs.closeSync(file);
  fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify(json));
  return layers * layerBytes;
}

const weightBytes = writeModel();
const x = new Float32Array(width).map((_, i) => Math.sin(i * 0.1));
fs.writeFileSync(path.join(dir, 'x.bin'), x);
const url = pathToFileURL(path.join(dir, 'model.json'));
console.log(`model: ${layers} MatMul layers of ${width} x ${width}, ${gib(weightBytes)} of float32 weights`);

const engine = await createEngine({ threads: 2 });
try {
  await engine.loadModel(url);
  throw new Error('one engine loaded more than 4 GiB of weights');
} catch (error) {
  if (error.name !== 'TesseraError') throw error;
  console.log(`one engine: ${error.message}`);
}

let start = performance.now();
const model = await engine.loadModel(url, { workers: Number(values.workers), workerMemory: values['worker-memory'] });
const loadMs = performance.now() - start;
const { placement } = model;
console.log(`over ${placement.workers} workers of ${values['worker-memory']}: ${placement.stages.length} stages, ` +
            `planned in ${placement.planningMs.toFixed(0)} ms, loaded in ${(loadMs / 1000).toFixed(1)} s`);
const memory = await model.memoryUsage();
for (const [s, stage] of placement.stages.entries()) {
  console.log(`  stage ${s}: ${stage.nodes.length} nodes, weights ${gib(stage.weightBytes)}, ` +
              `WebAssembly memory ${gib(memory[s].wasmBytes)}`);
}
start = performance.now();
const { y } = await model.run({ x });
console.log(`run: ${(performance.now() - start).toFixed(0)} ms`);

// The native CLI holds the whole model in one process: its output, within 1e-5 (it uses FMA).
execFileSync(path.join(repo, 'build/tessera'), ['run', url.pathname, '--input', `x=${path.join(dir, 'x.bin')}`,
                                                '--output-dir', dir]);
const native = new Float32Array(fs.readFileSync(path.join(dir, 'y.bin')).buffer.slice(0));
let diff = 0;
let norm = 0;
for (let i = 0; i < width; ++i) {
  diff = Math.max(diff, Math.abs(y.data[i] - native[i]));
  norm = Math.max(norm, Math.abs(native[i]));
}
console.log(`against the native CLI: max |difference| ${diff.toExponential(2)}, relative ${(diff / norm).toExponential(2)}`);
await engine.dispose();
if (!(diff / norm <= 1e-5)) process.exit(1);
