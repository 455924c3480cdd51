// Symbolic dims, measured: what a new specialisation costs to compile (the first one of a
// process, which also packs the weights, natively; a further one, which reuses the packing,
// in the WebAssembly package) and what a cached one costs per run (PP-OCRv4 det and rec
// converted once with symbolic dims, a BERT-base-sized HuggingFace-style export with int64
// inputs), and BERT's latency at sequence lengths 8, 64 and 256 next to onnxruntime-node on
// the same model and inputs. Engines alternate in rounds; each cell is the median of the
// rounds' medians.
//
//   node scripts/bench-shapes.mjs [--threads 2] [--runs 15] [--rounds 3] [--out build/bench-shapes.json]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ort from 'onnxruntime-node';

import { convertOnnx } from '../wasm/js/convert/index.js';
import { createEngine } from 'tessera';
import { bertLike, randomInputs } from '../tests/exports/index.mjs';
import { CLI, OCR_ASSETS, REPO, median, parseBenchArgs } from './bench-models.mjs';

const WORK = path.join(REPO, 'build/bench-shapes');
const BERT_BASE = { layers: 12, hidden: 768, heads: 12, vocab: 30522, maxPositions: 512, seed: 1 };
const SEQUENCES = [8, 64, 256];

function convert(onnxBytes, name) {
  const { json, weights } = convertOnnx(onnxBytes, { name });
  const jsonPath = path.join(WORK, `${name}.json`);
  fs.writeFileSync(jsonPath, JSON.stringify({ ...json, weights: `${name}.bin` }));
  fs.writeFileSync(path.join(WORK, `${name}.bin`), weights);
  return jsonPath;
}

// `tessera bench` on these inputs (written to files): its JSON report.
function benchTessera(jsonPath, feeds, args, tag) {
  const cli = ['bench', jsonPath, '--threads', String(args.threads), '--runs', String(args.runs), '--no-peak'];
  for (const [name, { dims, data }] of Object.entries(feeds)) {
    const file = path.join(WORK, `${tag}.${name}.bin`);
    fs.writeFileSync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    cli.push('--shape', `${name}=${dims.join('x')}`, '--input', `${name}=${file}`);
  }
  const report = path.join(WORK, `${tag}.report.json`);
  execFileSync(CLI, [...cli, '--json', report], { stdio: ['ignore', 'ignore', 'inherit'] });
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  return { ms: r.configurations[0].median_ms, compileMs: r.compile_ms, cachedMs: r.cached_specialization_ms };
}

async function benchOnnxruntime(session, feeds, args) {
  const inputs = Object.fromEntries(Object.entries(feeds).map(([n, { type, dims, data }]) => [n, new ort.Tensor(type, data, dims)]));
  const start = performance.now();
  while (performance.now() - start < 1000) await session.run(inputs);  // warm-up, as tessera bench
  const times = [];
  for (let i = 0; i < args.runs; ++i) {
    const t0 = performance.now();
    await session.run(inputs);
    times.push(performance.now() - t0);
  }
  return median(times);
}

// In the package: run each model at its first dims, then at new dims, and read the new
// specialisation's compile time from inspect().
async function furtherSpecializations(args) {
  const engine = await createEngine({ threads: args.threads });
  const rows = [];
  const cases = [
    ['PP-OCRv4 det', 'ch_PP-OCRv4_det_infer', [[1, 3, 640, 640], [1, 3, 544, 960]]],
    ['PP-OCRv4 rec', 'ch_PP-OCRv4_rec_infer', [[1, 3, 48, 320], [1, 3, 48, 480]]],
    ['BERT-base (int64 inputs)', 'bert_base_int64', [[1, 64], [1, 100]]],
  ];
  for (const [label, name, [first, next]] of cases) {
    const model = await engine.loadModel(JSON.parse(fs.readFileSync(path.join(WORK, `${name}.json`), 'utf8')),
      fs.readFileSync(path.join(WORK, `${name}.bin`)));
    const feed = (dims) => Object.fromEntries(model.inputs.map((input) => [input.name, {
      dims, data: input.dtype === 'int64' ? new BigInt64Array(dims[0] * dims[1]).fill(1n) : new Float32Array(dims.reduce((a, b) => a * b)),
    }]));
    await model.run(feed(first));
    await model.run(feed(next));
    rows.push({ model: label, first: first.join('x'), next: next.join('x'), compileMs: model.inspect().compile_ms });
    await model.dispose();
  }
  await engine.dispose();
  return rows;
}

async function main() {
  const args = parseBenchArgs(process.argv.slice(2), { threads: 2, runs: 15, rounds: 3, out: path.join(REPO, 'build/bench-shapes.json') });
  fs.mkdirSync(WORK, { recursive: true });

  // New specialisations of the OCR models, converted once with symbolic dims.
  const compiles = [];
  for (const [file, dims, label] of [['ch_PP-OCRv4_det_infer.onnx', [1, 3, 544, 960], 'PP-OCRv4 det at 960x544'],
    ['ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 480], 'PP-OCRv4 rec at width 480']]) {
    const jsonPath = convert(fs.readFileSync(path.join(OCR_ASSETS, file)), file.replace('.onnx', ''));
    const data = Float32Array.from({ length: dims.reduce((a, b) => a * b) }, (_, i) => Math.sin(i));
    const r = benchTessera(jsonPath, { x: { type: 'float32', dims, data } }, { ...args, runs: 5 }, label.replace(/\W+/g, '_'));
    compiles.push({ model: label, ...r });
  }

  const { bytes } = bertLike(BERT_BASE);
  const bertJson = convert(bytes, 'bert_base_int64');
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: args.threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
  const latency = [];
  for (const sequence of SEQUENCES) {
    const feeds = randomInputs('bertLike', { batch: 1, sequence, vocab: BERT_BASE.vocab }, sequence);
    const samples = { tessera: [], onnxruntime: [] };
    let tessera;
    for (let round = 0; round < args.rounds; ++round) {
      for (const engine of round % 2 ? ['onnxruntime', 'tessera'] : ['tessera', 'onnxruntime']) {
        if (engine === 'tessera') {
          tessera = benchTessera(bertJson, feeds, args, `bert_${sequence}`);
          samples.tessera.push(tessera.ms);
        } else {
          samples.onnxruntime.push(await benchOnnxruntime(session, feeds, args));
        }
      }
    }
    compiles.push({ model: `BERT-base (int64 inputs) at sequence ${sequence}`, ...tessera });
    latency.push({ sequence, tessera: median(samples.tessera), onnxruntime: median(samples.onnxruntime) });
  }
  await session.release();

  const further = await furtherSpecializations(args);
  fs.writeFileSync(args.out, JSON.stringify({ threads: args.threads, runs: args.runs, rounds: args.rounds, compiles, further, latency }, null, 2));
  console.log('\n| WebAssembly package: a further specialisation | first dims | new dims | compile ms |');
  console.log('| --- | --- | --- | --- |');
  for (const f of further) console.log(`| ${f.model} | ${f.first} | ${f.next} | ${f.compileMs.toFixed(1)} |`);
  console.log('\n| new specialisation | compile ms | cached, per run ms |');
  console.log('| --- | --- | --- |');
  for (const c of compiles) console.log(`| ${c.model} | ${c.compileMs.toFixed(1)} | ${c.cachedMs.toFixed(4)} |`);
  console.log(`\n| BERT-base, batch 1, ${args.threads} threads | Tessera ms | onnxruntime-node ms | onnxruntime / Tessera |`);
  console.log('| --- | --- | --- | --- |');
  for (const l of latency) {
    console.log(`| sequence ${l.sequence} | ${l.tessera.toFixed(2)} | ${l.onnxruntime.toFixed(2)} | ${(l.onnxruntime / l.tessera).toFixed(2)}x |`);
  }
}

await main();
