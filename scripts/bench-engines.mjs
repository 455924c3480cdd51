// Tessera vs XNNPACK vs onnxruntime-node on the same models, inputs and thread count, in
// one run: PP-OCRv4 det/rec/cls (converted from the npm package) and the zoo at batch 1
// (exported to ONNX for onnxruntime). Engines alternate in rounds so the machine's drift
// hits them alike; each cell is the median of the rounds' medians.
//
//   node scripts/bench-engines.mjs [--threads 2] [--runs 15] [--rounds 3] [--out build/bench-engines.json]
//                                  [--models ppocr_det,mobilenetv2_b1,...]
import fs from 'node:fs';
import path from 'node:path';
import ort from 'onnxruntime-node';

import { BENCH_MODELS, REPO, benchInput, benchNative, median, parseBenchArgs, prepareModels } from './bench-models.mjs';

const WORK = path.join(REPO, 'build/bench-engines');

async function benchOnnxruntime(model, args) {
  const session = await ort.InferenceSession.create(model.onnx, {
    intraOpNumThreads: args.threads, interOpNumThreads: 1, graphOptimizationLevel: 'all',
  });
  const { name, dims } = model.input;
  const feeds = { [name]: new ort.Tensor('float32', benchInput(model.input), dims) };
  const start = performance.now();
  while (performance.now() - start < 1000) await session.run(feeds);  // warm-up, as tessera bench
  const times = [];
  for (let i = 0; i < args.runs; ++i) {
    const t0 = performance.now();
    await session.run(feeds);
    times.push(performance.now() - t0);
  }
  await session.release();
  return median(times);
}

async function main() {
  const args = parseBenchArgs(process.argv.slice(2),
    { threads: 2, runs: 15, rounds: 3, out: path.join(REPO, 'build/bench-engines.json'), models: BENCH_MODELS });
  const models = prepareModels(args.models, WORK);
  const engines = ['tessera', 'xnnpack', 'onnxruntime'];
  const results = {};
  for (const model of models) {
    const samples = Object.fromEntries(engines.map((e) => [e, []]));
    const errors = {};
    const cores = [];  // ns, after each of Tessera's runs: the host's state (docs/benchmarks.md)
    for (let round = 0; round < args.rounds; ++round) {
      for (let k = 0; k < engines.length; ++k) {
        const engine = engines[(round + k) % engines.length];
        const report = path.join(WORK, `${model.name}.${engine}.json`);
        const r = engine === 'onnxruntime' ? { [args.threads]: await benchOnnxruntime(model, args) }
          : benchNative(model, { engine, threads: [args.threads], runs: args.runs, report });
        if (r.error) errors[engine] = r.error;
        else samples[engine].push(r[args.threads]);
        if (r.cores) cores.push(Math.round(r.cores.after));
      }
    }
    results[model.name] = Object.fromEntries(engines.map((e) => [e, errors[e] ? { error: errors[e] } : { ms: median(samples[e]) }]));
    if (cores.length) results[model.name].core_round_trip_ns = cores;
    console.log(model.name, JSON.stringify(results[model.name]));
  }
  fs.writeFileSync(args.out, JSON.stringify({ threads: args.threads, runs: args.runs, rounds: args.rounds, results }, null, 2));
  console.log(`\n| model | Tessera ms | XNNPACK ms | onnxruntime ms | onnxruntime / Tessera | XNNPACK / Tessera |`);
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, r] of Object.entries(results)) {
    const cell = (e) => (r[e].ms ? r[e].ms.toFixed(2) : `n/a (${r[e].error})`);
    const ratio = (e) => (r[e].ms && r.tessera.ms ? `${(r[e].ms / r.tessera.ms).toFixed(2)}x` : '-');
    console.log(`| ${name} | ${cell('tessera')} | ${cell('xnnpack')} | ${cell('onnxruntime')} | ${ratio('onnxruntime')} | ${ratio('xnnpack')} |`);
  }
}

await main();
