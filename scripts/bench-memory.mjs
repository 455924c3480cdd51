// Peak resident memory natively: Tessera (`tessera bench`, which reports its peak) against
// onnxruntime-node, each model loaded and run a few times in a fresh process of its own.
// onnxruntime's figure is its Node process's peak less that of a Node process that only
// imported onnxruntime-node; Tessera's is given whole and less that of a `tessera bench` of a
// one-node model without weights (both baselines printed). Tessera's is set against a target
// of 1.15 x the weights plus the arena, and the two engines are compared less their baselines.
//
//   node scripts/bench-memory.mjs [--threads 2] [--runs 5] [--models vgg16_b1,resnet50_b1,...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {
  BENCH_MODELS, CLI, REPO, benchInput, parseBenchArgs, peakResidentBytes, prepareModels,
} from './bench-models.mjs';

const WORK = path.join(REPO, 'build/bench-engines');
const MiB = 2 ** 20;

// In the child: loads `onnx` (or nothing) in onnxruntime-node, runs it, prints the peak.
async function onnxruntimeChild(onnx, input, threads, runs) {
  const { default: ort } = await import('onnxruntime-node');
  if (onnx) {
    const session = await ort.InferenceSession.create(onnx, {
      intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all',
    });
    const feeds = { [input.name]: new ort.Tensor('float32', benchInput(input), input.dims) };
    for (let i = 0; i < runs; ++i) await session.run(feeds);
  }
  console.log(JSON.stringify({ peakBytes: peakResidentBytes() }));
}

function onnxruntimePeak(model, args) {
  const child = [process.argv[1], '--child', JSON.stringify({ onnx: model?.onnx ?? '', input: model?.input, ...args })];
  return JSON.parse(execFileSync(process.execPath, child, { encoding: 'utf8' })).peakBytes;
}

// Tessera's peak resident bytes and its arena's bytes, from `tessera bench`'s report.
function tesseraPeak(model, { threads, runs }) {
  const report = path.join(WORK, `${model.name}.memory.json`);
  execFileSync(CLI, ['bench', model.json, '--threads', String(threads), '--runs', String(runs), '--warmup', '0.1',
    '--no-peak', '--json', report], { stdio: ['ignore', 'ignore', 'inherit'] });
  const result = JSON.parse(fs.readFileSync(report, 'utf8'));
  return { peak: result.peak_resident_bytes, arena: result.configurations[0].arena_bytes };
}

// Tessera's process with nothing to speak of loaded: one Relu over 8 floats, no weights file.
function tesseraBaseline(args) {
  const json = path.join(WORK, 'baseline_relu.json');
  const value = (name) => ({ name, dtype: 'float32', shape: [1, 8] });
  fs.writeFileSync(json, JSON.stringify({
    format: 'tessera', version: 1, name: 'baseline_relu', inputs: [value('x')], outputs: [value('y')],
    initializers: [], nodes: [{ name: 'relu', op: 'Relu', inputs: ['x'], outputs: ['y'] }],
  }));
  return tesseraPeak({ name: 'baseline_relu', json }, args).peak;
}

function main() {
  const args = parseBenchArgs(process.argv.slice(2), { threads: 2, runs: 5, models: BENCH_MODELS });
  const baseline = onnxruntimePeak(null, args);
  const tesseraBase = tesseraBaseline(args);
  const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
  console.log(`baselines: Node with onnxruntime-node imported, nothing loaded, ${mib(baseline)}; ` +
              `tessera bench of one Relu, ${mib(tesseraBase)}`);
  console.log('| model | weights | arena | Tessera peak | less its baseline | target: 1.15 x weights + arena | ' +
              'onnxruntime-node peak (less its baseline) | Tessera / onnxruntime (less the baselines) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const model of prepareModels(args.models, WORK)) {
    const weights = fs.statSync(model.json.replace(/\.json$/, '.bin')).size;
    const tessera = tesseraPeak(model, args);
    const own = tessera.peak - tesseraBase;
    const target = 1.15 * weights + tessera.arena;
    const ort = onnxruntimePeak(model, args) - baseline;
    const verdict = (bytes) => (bytes <= target ? 'met' : `${mib(bytes - target)} over`);
    console.log(`| ${model.name} | ${mib(weights)} | ${mib(tessera.arena)} | ` +
                `${mib(tessera.peak)} (${(tessera.peak / weights).toFixed(2)}x) | ${mib(own)} | ` +
                `${mib(target)}: whole ${verdict(tessera.peak)}, less the baseline ${verdict(own)} | ` +
                `${mib(ort)} (${(ort / weights).toFixed(2)}x) | ${(own / ort).toFixed(2)} |`);
  }
}

if (process.argv[2] === '--child') {
  const { onnx, input, threads, runs } = JSON.parse(process.argv[3]);
  await onnxruntimeChild(onnx, input, threads, runs);
} else {
  main();
}
