// Peak resident memory natively: Tessera (`tessera bench`, which reports its peak) against
// onnxruntime-node, each model loaded and run a few times in a fresh process of its own.
// onnxruntime's figure is its Node process's peak less that of a Node process that only
// imported onnxruntime-node (printed as the baseline). Tessera's is set against a target of
// 1.15 x the weights plus the arena (whole process: the binary and libraries included).
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

function main() {
  const args = parseBenchArgs(process.argv.slice(2), { threads: 2, runs: 5, models: BENCH_MODELS });
  const baseline = onnxruntimePeak(null, args);
  console.log(`Node with onnxruntime-node imported, nothing loaded: ${(baseline / MiB).toFixed(0)} MiB`);
  console.log('| model | weights | arena | Tessera peak | target: 1.15 x weights + arena | ' +
              'onnxruntime-node peak (less the baseline) | Tessera / onnxruntime |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const model of prepareModels(args.models, WORK)) {
    const weights = fs.statSync(model.json.replace(/\.json$/, '.bin')).size;
    const tessera = tesseraPeak(model, args);
    const target = 1.15 * weights + tessera.arena;
    const ort = onnxruntimePeak(model, args) - baseline;
    const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
    const verdict = tessera.peak <= target ? 'met' : `${mib(tessera.peak - target)} over`;
    console.log(`| ${model.name} | ${mib(weights)} | ${mib(tessera.arena)} | ` +
                `${mib(tessera.peak)} (${(tessera.peak / weights).toFixed(2)}x) | ${mib(target)}, ${verdict} | ` +
                `${mib(ort)} (${(ort / weights).toFixed(2)}x) | ${(tessera.peak / ort).toFixed(2)} |`);
  }
}

if (process.argv[2] === '--child') {
  const { onnx, input, threads, runs } = JSON.parse(process.argv[3]);
  await onnxruntimeChild(onnx, input, threads, runs);
} else {
  main();
}
