// Tessera's WebAssembly engine (the npm package's createEngine, in Node) next to
// onnxruntime-web's wasm backend at 1 and 2 threads, with Tessera native (planner auto) for
// reference: the same models and input in one run; Tessera wasm with each tiling planner that
// --planner lists (default: default). Each engine, thread count and planner has its own child
// process (onnxruntime-web fixes its threads once per process); the configurations take turns
// within each round so the machine's drift hits them alike. The children compile wasm with
// V8's optimising tier from the start (--no-liftoff: otherwise the baseline tier's code runs
// for seconds, and longer for the larger onnxruntime module), and still warm up for 3 s per
// model (1 s in later rounds). Each cell is the median of the rounds' medians.
//
//   npm run bench [-- --runs 15 --rounds 3 --models mobilenetv2_b1,resnet50_b1,bert_base,ppocr_det
//                     --planner default,search --out build/bench-wasm.json]
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { relativeError } from '../tests/crosscheck/tensors.mjs';
import { REPO, benchInput, benchNative, median, parseBenchArgs, prepareModels } from './bench-models.mjs';

const WORK = path.join(REPO, 'build/bench-engines');
const THREADS = [1, 2];
const PLANNERS = ['default', 'search'];

// ---- child: one engine at one thread count, benchmarking models on request ----

async function tesseraRunner(threads, planner) {
  const { createEngine } = await import('tessera');
  const engine = await createEngine({ threads, wasm: 'threads' });
  // The search plans on the engine's profile: a quick calibration in this build and thread count.
  if (planner === 'search') await engine.calibrate({ quick: true });
  return {
    async load(model) {
      const loaded = await engine.loadModel(new URL(`file://${model.json}`), { planner });
      const inputs = { [model.input.name]: benchInput(model.input) };
      return async () => Object.values(await loaded.run(inputs))[0].data;
    },
  };
}

async function onnxruntimeWebRunner(threads) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = threads;
  return {
    async load(model) {
      const session = await ort.InferenceSession.create(fs.readFileSync(model.onnx),
        { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
      const { name, dims } = model.input;
      const feeds = { [name]: new ort.Tensor('float32', benchInput(model.input), dims) };
      return async () => Object.values(await session.run(feeds))[0].data;
    },
  };
}

async function serveChild(kind, threads, planner) {
  const runner = kind === 'tessera' ? await tesseraRunner(threads, planner) : await onnxruntimeWebRunner(threads);
  const runs = new Map();  // model name -> run()
  process.on('message', async ({ model, count }) => {
    const first = !runs.has(model.name);
    if (first) runs.set(model.name, await runner.load(model));
    const run = runs.get(model.name);
    const start = performance.now();
    let output;
    while (performance.now() - start < (first ? 3000 : 1000)) output = await run();
    const times = [];
    for (let i = 0; i < count; ++i) {
      const t0 = performance.now();
      await run();
      times.push(performance.now() - t0);
    }
    process.send({ ms: median(times), output: first ? Array.from(output) : null });
  });
  process.send({ ready: true });
}

// ---- parent ----

// One child per configuration: [kind, threads, planner (Tessera's; null for onnxruntime-web)].
function startChild([kind, threads, planner]) {
  const child = fork(new URL(import.meta.url), ['--child', kind, String(threads), planner ?? ''],
    { stdio: 'inherit', execArgv: ['--no-liftoff'] });
  const name = planner ? `${kind} ${threads}t ${planner}` : `${kind} ${threads}t`;
  let pending = null;
  child.on('message', (message) => pending?.(message));
  child.on('exit', (code) => code && pending?.({ error: `${name} exited with ${code}` }));
  const next = () => new Promise((resolve) => (pending = resolve));
  const ready = next();
  return {
    name, kind, planner, ready,
    async bench(model, count) {
      const reply = next();
      child.send({ model, count });
      const result = await reply;
      if (result.error) throw new Error(result.error);
      return result;
    },
    stop: () => child.kill(),
  };
}

// --planner takes names, which parseBenchArgs (numbers, --models and --out) does not.
function takePlanners(argv) {
  const at = argv.indexOf('--planner');
  if (at < 0) return { argv, planners: ['default'] };
  const planners = argv[at + 1]?.split(',') ?? [];
  if (!planners.length || planners.some((planner) => !PLANNERS.includes(planner))) {
    throw new Error(`--planner takes a list of ${PLANNERS.join(', ')}, got ${argv[at + 1]}`);
  }
  return { argv: argv.toSpliced(at, 2), planners };
}

async function main() {
  const { argv, planners } = takePlanners(process.argv.slice(2));
  const args = parseBenchArgs(argv, {
    runs: 15, rounds: 3, out: path.join(REPO, 'build/bench-wasm.json'),
    models: ['mobilenetv2_b1', 'resnet50_b1', 'bert_base', 'ppocr_det'],
  });
  if (!fs.existsSync(path.join(REPO, 'wasm/dist/tessera-threads.wasm'))) {
    throw new Error('the WebAssembly build is missing: run scripts/build-wasm.sh first');
  }
  const models = prepareModels(args.models, WORK);
  const configurations = [...planners.flatMap((planner) => THREADS.map((threads) => ['tessera', threads, planner])),
                          ...THREADS.map((threads) => ['ort-web', threads, null])];
  const children = configurations.map(startChild);
  await Promise.all(children.map((child) => child.ready));
  const results = {};
  try {
    for (const model of models) {
      const samples = {};
      const outputs = {};
      const add = (name, ms) => (samples[name] ??= []).push(ms);
      const turns = [...children, 'native'];
      for (let round = 0; round < args.rounds; ++round) {
        for (let k = 0; k < turns.length; ++k) {
          const turn = turns[(round + k) % turns.length];
          if (turn === 'native') {
            const report = path.join(WORK, `${model.name}.native-wasm-bench.json`);
            const native = benchNative(model, { threads: [1, 2], runs: args.runs, report });
            if (native.error) throw new Error(`native ${model.name}: ${native.error}`);
            add('native 1t', native[1]);
            add('native 2t', native[2]);
          } else {
            const { ms, output } = await turn.bench(model, args.runs);
            add(turn.name, ms);
            if (output) outputs[turn.planner ?? turn.kind] ??= output;
          }
        }
      }
      results[model.name] = {
        ms: Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)])),
        tessera_vs_ort_web_output: Object.fromEntries(planners.map((planner) =>
          [planner, relativeError(outputs[planner], outputs['ort-web'])])),
      };
      console.log(model.name, JSON.stringify(results[model.name]));
    }
  } finally {
    for (const child of children) child.stop();
  }
  fs.writeFileSync(args.out, JSON.stringify({ runs: args.runs, rounds: args.rounds, planners, results }, null, 2));
  printTable(results, planners);
}

// One row per model and planner.
function printTable(results, planners) {
  const f = (ms) => ms.toFixed(ms < 10 ? 2 : 1);
  const x = (ratio) => `${ratio.toFixed(2)}x`;
  console.log('\n| model | planner | Tessera wasm 1t | 2t | 2t speed-up | onnxruntime-web 1t | 2t | ' +
              'ORT-web / Tessera 1t | 2t | Tessera native (planner auto) 1t | 2t | output diff |');
  console.log(`|${' --- |'.repeat(12)}`);
  for (const [name, { ms, tessera_vs_ort_web_output: diff }] of Object.entries(results)) {
    for (const planner of planners) {
      const [one, two] = [ms[`tessera 1t ${planner}`], ms[`tessera 2t ${planner}`]];
      console.log(`| ${name} | ${planner} | ${f(one)} | ${f(two)} | ${x(one / two)} | ` +
                  `${f(ms['ort-web 1t'])} | ${f(ms['ort-web 2t'])} | ${x(ms['ort-web 1t'] / one)} | ` +
                  `${x(ms['ort-web 2t'] / two)} | ${f(ms['native 1t'])} | ${f(ms['native 2t'])} | ` +
                  `${diff[planner].toExponential(1)} |`);
    }
  }
}

if (process.argv[2] === '--child') await serveChild(process.argv[3], Number(process.argv[4]), process.argv[5] || null);
else await main();
