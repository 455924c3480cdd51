// How long the tiling search takes in WebAssembly, through the built package in Node: each
// model is loaded --loads times with { planner: 'search' } in the threads build (on --threads
// threads) and in the single build, and the plan report's planningMs (the search and the
// simulator's check of its plan) is printed as the median over the loads, beside the compile
// time of the whole specialisation. A model with symbolic dims runs once per load at the dims
// --shape binds, which compiles its specialisation. The engines have no profile: the search
// prices tiles with the uncalibrated guesses.
//
//   node scripts/plan-time-wasm.mjs [MODEL.json ...] [--shape NAME=AxBxC ...] [--loads 3] [--threads 2]
//
// Default: build/test-zoo-full/resnet50_b1.json, build/test-zoo-full/bert_base.json and
// build/ocr-models/ocr_det.json with --shape x=1x3x640x640; missing ones are skipped with a
// note. Needs scripts/build-wasm.sh first.
import fs from 'node:fs';
import path from 'node:path';

import { createEngine } from 'tessera';
import { REPO, median, runOptimisingWasm } from './bench-models.mjs';

const DEFAULT_MODELS = ['build/test-zoo-full/resnet50_b1.json', 'build/test-zoo-full/bert_base.json',
                        'build/ocr-models/ocr_det.json'].map((file) => path.join(REPO, file));
const DEFAULT_SHAPES = { x: [1, 3, 640, 640] };
const ARRAYS = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, bool: Uint8Array, uint8: Uint8Array };

function parseArgs(argv) {
  const args = { models: [], shapes: {}, loads: 3, threads: 2 };
  for (let i = 0; i < argv.length; ++i) {
    const flag = argv[i];
    if (!flag.startsWith('--')) {
      args.models.push(path.resolve(flag));
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--shape') {
      const [name, dims] = value.split('=');
      args.shapes[name] = dims?.split('x').map(Number);
      if (!args.shapes[name]?.every((d) => Number.isInteger(d) && d > 0)) {
        throw new Error(`--shape takes NAME=AxBxC, got ${value}`);
      }
    } else if (flag === '--loads' || flag === '--threads') {
      const count = Number(value);
      if (!(Number.isInteger(count) && count >= 1)) throw new Error(`${flag} takes a positive integer, got ${value}`);
      args[flag.slice(2)] = count;
    } else {
      throw new Error(`unknown argument ${flag}`);
    }
  }
  if (!args.models.length) {
    Object.assign(args, { models: DEFAULT_MODELS, shapes: { ...DEFAULT_SHAPES, ...args.shapes } });
  }
  return args;
}

// The models that are there, as { name, url, feeds: inputs for the run that specialises a
// model with symbolic dims (null when its dims are all fixed) }.
function findModels({ models, shapes }) {
  return models.flatMap((json) => {
    if (!fs.existsSync(json)) {
      console.log(`${path.relative(REPO, json)} missing, skipped`);
      return [];
    }
    const { name, inputs } = JSON.parse(fs.readFileSync(json, 'utf8'));
    const symbolic = inputs.some((input) => input.shape.some((d) => typeof d === 'string'));
    if (!symbolic) return [{ name, url: new URL(`file://${json}`), feeds: null }];
    const feeds = Object.fromEntries(inputs.map((input) => {
      const dims = shapes[input.name] ?? input.shape;
      if (dims.some((d) => typeof d === 'string')) {
        throw new Error(`${name}: input "${input.name}" has symbolic dims [${input.shape}]: give them with --shape`);
      }
      return [input.name, { data: new ARRAYS[input.dtype](dims.reduce((a, b) => a * b, 1)), dims }];
    }));
    return [{ name, url: new URL(`file://${json}`), feeds }];
  });
}

// One load with the search: its plan report and the specialisation's compile time.
async function planOnce(engine, model) {
  const loaded = await engine.loadModel(model.url, { planner: 'search' });
  try {
    if (model.feeds) await loaded.run(model.feeds);
    return { report: await loaded.plan(), compileMs: loaded.inspect().compile_ms };
  } finally {
    await loaded.dispose();
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(REPO, 'wasm/dist/tessera-threads.wasm'))) {
    throw new Error('the WebAssembly build is missing: run scripts/build-wasm.sh first');
  }
  const models = findModels(args);
  const rows = [];
  for (const [wasm, threads] of [['threads', args.threads], ['single', 1]]) {
    const engine = await createEngine({ wasm, threads });
    try {
      for (const model of models) {
        const loads = [];
        for (let n = 0; n < args.loads; ++n) loads.push(await planOnce(engine, model));
        const { report } = loads[0];
        const row = {
          model: model.name, build: `${wasm} ${engine.threads}t`,
          planningMs: median(loads.map((l) => l.report.planningMs)), compileMs: median(loads.map((l) => l.compileMs)),
          configurations: report.configurations, searchPath: report.searchPath, keptDefault: report.keptDefault,
        };
        rows.push(row);
        const each = loads.map((l) => l.report.planningMs.toFixed(1)).join(', ');
        console.log(`${row.model} ${row.build}: planning ${row.planningMs.toFixed(1)} ms (loads: ${each}), ` +
                    `compile ${row.compileMs.toFixed(1)} ms, ${row.configurations} configurations, solved by ` +
                    `${row.searchPath}${row.keptDefault ? ', kept the default' : ''}` +
                    `${report.calibrated ? '' : ' (uncalibrated)'}`);
      }
    } finally {
      await engine.dispose();
    }
  }
  console.log(`\n| model | build | planning ms (median of ${args.loads}) | compile ms | configurations | ` +
              'search path | kept default |');
  console.log(`|${' --- |'.repeat(7)}`);
  for (const r of rows) {
    console.log(`| ${r.model} | ${r.build} | ${r.planningMs.toFixed(1)} | ${r.compileMs.toFixed(1)} | ` +
                `${r.configurations} | ${r.searchPath} | ${r.keptDefault ? 'yes' : 'no'} |`);
  }
}

await runOptimisingWasm(import.meta.url, main);
