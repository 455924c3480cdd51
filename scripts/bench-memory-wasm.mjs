// Peak memory in WebAssembly: the package's threads build against onnxruntime-web's wasm
// backend, each model loaded from its file and run a few times in a fresh Node process of its
// own. A process's figure is its peak resident set (VmHWM: WebAssembly memory, workers and
// JS heap included) less that of a process that imported the same engine, set it up at the
// same thread count and loaded nothing (printed as the baselines). For Tessera it also prints
// its WebAssembly memory after the runs and what its allocator holds in it
// (`engine.memoryUsage()`), against the weights.
//
//   node scripts/bench-memory-wasm.mjs [--threads 2] [--runs 5] [--models resnet50_b1,...]
//
// Needs scripts/build-wasm.sh first. Run on an idle machine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { REPO, benchInput, parseBenchArgs, peakResidentBytes, prepareModels } from './bench-models.mjs';

const WORK = path.join(REPO, 'build/bench-engines');
const MiB = 2 ** 20;
const DEFAULT_MODELS = ['mobilenetv2_b1', 'resnet50_b1', 'bert_base', 'ppocr_det', 'ppocr_rec'];

// In the child: loads `model` (or nothing) in one engine, runs it, prints what it measured.
async function child(kind, model, threads, runs) {
  let usage = {};
  if (kind === 'tessera') {
    const { createEngine } = await import('tessera');
    const engine = await createEngine({ threads, wasm: 'threads' });
    if (model) {
      const loaded = await engine.loadModel(new URL(`file://${model.json}`));
      const inputs = { [model.input.name]: benchInput(model.input) };
      for (let i = 0; i < runs; ++i) await loaded.run(inputs);
      usage = await engine.memoryUsage();
    }
  } else {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = threads;
    if (model) {
      const session = await ort.InferenceSession.create(fs.readFileSync(model.onnx),
        { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
      const feeds = { [model.input.name]: new ort.Tensor('float32', benchInput(model.input), model.input.dims) };
      for (let i = 0; i < runs; ++i) await session.run(feeds);
    }
  }
  console.log(JSON.stringify({ peakBytes: peakResidentBytes(), ...usage }));
  process.exit(0);  // the engines' worker threads would keep the process alive
}

function measure(kind, model, { threads, runs }) {
  const args = [process.argv[1], '--child', JSON.stringify({ kind, model, threads, runs })];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', cwd: REPO }));
}

function main() {
  const args = parseBenchArgs(process.argv.slice(2), { threads: 2, runs: 5, models: DEFAULT_MODELS });
  const baseline = { tessera: measure('tessera', null, args).peakBytes, ort: measure('ort', null, args).peakBytes };
  const mib = (bytes) => `${(bytes / MiB).toFixed(0)} MiB`;
  console.log(`Baselines (engine set up on ${args.threads} threads, nothing loaded): Tessera ` +
              `${mib(baseline.tessera)}, onnxruntime-web ${mib(baseline.ort)}`);
  console.log('| model | weights | Tessera peak | its WebAssembly memory | its heap in use | onnxruntime-web peak | ' +
              'Tessera / onnxruntime-web |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const model of prepareModels(args.models, WORK)) {
    const weights = fs.statSync(model.json.replace(/\.json$/, '.bin')).size;
    const tessera = measure('tessera', model, args);
    const ort = measure('ort', model, args).peakBytes - baseline.ort;
    const peak = tessera.peakBytes - baseline.tessera;
    const x = (bytes) => `${(bytes / weights).toFixed(2)}x`;
    console.log(`| ${model.name} | ${mib(weights)} | ${mib(peak)} (${x(peak)}) | ${mib(tessera.wasmBytes)} | ` +
                `${mib(tessera.heapInUseBytes)} (${x(tessera.heapInUseBytes)}) | ${mib(ort)} (${x(ort)}) | ` +
                `${(peak / ort).toFixed(2)} |`);
  }
}

if (process.argv[2] === '--child') {
  const { kind, model, threads, runs } = JSON.parse(process.argv[3]);
  await child(kind, model, threads, runs);
} else {
  main();
}
