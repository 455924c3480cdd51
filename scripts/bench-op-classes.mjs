#!/usr/bin/env node
// Where the time goes, Tessera against onnxruntime-node, per class of op: each engine's own
// per-node times (Tessera: `tessera predict --measure`, the sum of each node's tiles;
// onnxruntime: its profiler's kernel times), summed per class over the same models, on one
// thread by default, where both are the wall time an op takes. Classes come from shapes and
// attributes, not names (each engine fuses and renames differently): convolutions by kernel,
// stride and depthwise or not, the stem (at most 4 input channels), GEMMs, and the rest by op.
//
//   node scripts/bench-op-classes.mjs [--models resnet50_b1,...] [--threads 1] [--runs 20]
//                                     [--nodes 1] [--out build/bench-op-classes.json]
//
// `--nodes 1` also prints the convolutions and GEMMs node by node, each of Tessera's paired with
// onnxruntime's of the same class and shapes (in order, where several share them).
//
// Run on an idle machine, after the native build (it converts and exports the models as
// bench-engines does).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ort from 'onnxruntime-node';

import { BENCH_MODELS, CLI, REPO, benchInput, parseBenchArgs, prepareModels } from './bench-models.mjs';

const WORK = path.join(REPO, 'build/bench-engines');

// A convolution's class from its weights [M, C/group, kH, kW], group and stride.
function convClass(weights, group, stride) {
  const [m, perGroup, kh, kw] = weights;
  const kernel = `${kh}x${kw}`;
  const s = stride > 1 ? ` s${stride}` : '';
  if (group > 1 && group === m && perGroup === 1) return `depthwise ${kernel}${s}`;
  if (perGroup * group <= 4) return `conv ${kernel} stem`;
  if (group > 1) return `grouped conv ${kernel}${s}`;
  return `conv ${kernel}${s}`;
}

function opClass(op, convolution) {
  if (convolution) return convolution;
  if (op === 'MatMul' || op === 'Gemm' || op === 'FusedMatMul' || op === 'FusedGemm') return 'matmul / gemm';
  if (op === 'ConvTranspose') return 'conv transpose';
  return `other: ${op}`;
}

// Tessera: per compiled node, its class (from the model's attributes and weight shapes), the
// summed time of its tiles (median over the runs) and its FLOPs.
function tesseraTimes(model, { threads, runs }) {
  const desc = JSON.parse(fs.readFileSync(model.json, 'utf8'));
  const shapes = new Map(desc.initializers.map((t) => [t.name, t.shape]));
  const byName = new Map(desc.nodes.map((n) => [n.name, n]));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'op-classes-'));
  const predict = path.join(dir, 'predict.json');
  const inspect = path.join(dir, 'inspect.json');
  execFileSync(CLI, ['predict', model.json, '--threads', String(threads), '--scheduler', 'dynamic', '--measure',
    '--runs', String(runs), '--json', predict], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(CLI, ['inspect', model.json, '--threads', String(threads), '--json', inspect],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  const compiled = new Map(JSON.parse(fs.readFileSync(inspect, 'utf8')).nodes.map((n) => [n.name, n]));
  const nodes = JSON.parse(fs.readFileSync(predict, 'utf8')).nodes;
  fs.rmSync(dir, { recursive: true });
  return nodes.map((n) => {
    const source = byName.get(n.name);
    const weights = source && shapes.get(source.inputs[1]);
    let convolution = null;
    if (n.op === 'Conv' && weights) {
      const a = source.attributes ?? {};
      convolution = convClass(weights, a.group ?? 1, (a.strides ?? [1])[0]);
    }
    const cls = opClass(n.op, convolution);
    return { name: n.name, cls, key: nodeKey(cls, weights, compiled.get(n.name)?.shape), ms: n.measured_ms,
      flops: compiled.get(n.name)?.flops ?? 0 };
  });
}

// onnxruntime: its profiler's kernel time per node over the last `runs` runs (median), its
// class from the shapes it records.
async function onnxruntimeTimes(model, { threads, runs }) {
  const prefix = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'op-classes-')), 'ort');
  const session = await ort.InferenceSession.create(model.onnx, {
    intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all',
    enableProfiling: true, profileFilePrefix: prefix,
  });
  const { name, dims } = model.input;
  const feeds = { [name]: new ort.Tensor('float32', benchInput(model.input), dims) };
  const start = performance.now();
  while (performance.now() - start < 1000) await session.run(feeds);  // warm-up
  for (let i = 0; i < runs; ++i) await session.run(feeds);
  session.endProfiling();
  await session.release();
  const dir = path.dirname(prefix);
  const file = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.json')));
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.rmSync(dir, { recursive: true });
  const windows = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').slice(-runs);
  const perRun = windows.map(() => new Map());  // node index -> { cls, us, flops }
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const run = windows.findIndex((w) => e.ts >= w.ts && e.ts <= w.ts + w.dur);
    if (run < 0) continue;
    const inputs = (e.args.input_type_shape ?? []).map((t) => Object.values(t)[0]);
    const output = Object.values((e.args.output_type_shape ?? [{}])[0] ?? {})[0] ?? [];
    let convolution = null;
    let flops = 0;
    if ((e.args.op_name === 'Conv' || e.args.op_name === 'FusedConv') && inputs.length >= 2 && inputs[1].length === 4) {
      const [x, w] = inputs;
      const group = x[1] / (w[1] || 1);
      const stride = Math.max(1, Math.round(x[2] / (output[2] || x[2])));
      convolution = convClass(w, group, stride);
      flops = 2 * output.reduce((a, b) => a * b, 1) * w[1] * w[2] * w[3];
    }
    const cls = opClass(e.args.op_name, convolution);
    perRun[run].set(e.args.node_index,
      { name: e.name.replace(/_kernel_time$/, ''), cls, key: nodeKey(cls, inputs[1], output), us: e.dur, flops });
  }
  // The median run's nodes: runs differ in time, not in what they run.
  const totals = perRun.map((m) => [...m.values()].reduce((s, n) => s + n.us, 0));
  const median = perRun[totals.indexOf([...totals].sort((a, b) => a - b)[Math.floor(totals.length / 2)])];
  return [...median.values()].map(({ us, ...n }) => ({ ...n, ms: us / 1000 }));
}

// What pairs a node of one engine with the other's: its class, output shape and, for a
// convolution, its weights' shape (onnxruntime's profile leaves a GEMM's out). Null for the
// `other` classes, which each engine fuses differently.
function nodeKey(cls, weights, output) {
  if (cls.startsWith('other: ')) return null;
  const w = cls === 'matmul / gemm' ? '' : ` w${(weights ?? []).join('x')}`;
  return `${cls}${w} y${(output ?? []).join('x')}`;
}

// Tessera's keyed nodes in order, each with the next unpaired onnxruntime node of its key.
function pairNodes(tessera, onnxruntime) {
  const queues = new Map();
  for (const n of onnxruntime) {
    if (n.key === null) continue;
    if (!queues.has(n.key)) queues.set(n.key, []);
    queues.get(n.key).push(n);
  }
  return tessera.filter((n) => n.key !== null).map((n) => ({ tessera: n, onnxruntime: queues.get(n.key)?.shift() }));
}

function printNodes(pairs) {
  console.log('| node | class | Tessera ms | onnxruntime ms | onnxruntime / Tessera |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const { tessera: t, onnxruntime: o } of pairs) {
    console.log(`| ${t.name} | ${t.cls} | ${t.ms.toFixed(3)} | ${o ? o.ms.toFixed(3) : '-'} | ` +
      `${o ? `${(o.ms / t.ms).toFixed(2)}x` : '-'} |`);
  }
}

function byClass(rows) {
  const out = {};
  for (const { cls, ms, flops } of rows) {
    out[cls] ??= { ms: 0, flops: 0 };
    out[cls].ms += ms;
    out[cls].flops += flops;
  }
  return out;
}

async function main() {
  const args = parseBenchArgs(process.argv.slice(2),
    { threads: 1, runs: 20, nodes: 0, out: path.join(REPO, 'build/bench-op-classes.json'), models: BENCH_MODELS });
  const results = {};
  for (const model of prepareModels(args.models, WORK)) {
    const tesseraNodes = tesseraTimes(model, args);
    const onnxruntimeNodes = await onnxruntimeTimes(model, args);
    const tessera = byClass(tesseraNodes);
    const onnxruntime = byClass(onnxruntimeNodes);
    results[model.name] = { tessera, onnxruntime };
    console.log(`\n${model.name}, ${args.threads} thread(s): ms per run, summed per class (GFLOP/s)`);
    console.log('| class | Tessera | onnxruntime | onnxruntime / Tessera |');
    console.log('| --- | --- | --- | --- |');
    const classes = [...new Set([...Object.keys(tessera), ...Object.keys(onnxruntime)])];
    classes.sort((a, b) => (onnxruntime[b]?.ms ?? 0) + (tessera[b]?.ms ?? 0) - (onnxruntime[a]?.ms ?? 0) -
      (tessera[a]?.ms ?? 0));
    const cell = (c) => (c ? `${c.ms.toFixed(2)}${c.flops ? ` (${(c.flops / c.ms / 1e6).toFixed(0)})` : ''}` : '-');
    for (const cls of classes) {
      const t = tessera[cls], o = onnxruntime[cls];
      console.log(`| ${cls} | ${cell(t)} | ${cell(o)} | ${t && o ? `${(o.ms / t.ms).toFixed(2)}x` : '-'} |`);
    }
    const total = (c) => Object.values(c).reduce((s, x) => s + x.ms, 0);
    console.log(`| all | ${total(tessera).toFixed(2)} | ${total(onnxruntime).toFixed(2)} | ` +
      `${(total(onnxruntime) / total(tessera)).toFixed(2)}x |`);
    if (args.nodes) {
      console.log(`\n${model.name}, ${args.threads} thread(s): convolutions and GEMMs, node by node`);
      printNodes(pairNodes(tesseraNodes, onnxruntimeNodes));
    }
  }
  fs.writeFileSync(args.out, JSON.stringify({ date: new Date().toISOString(), threads: args.threads, results }, null, 1));
  console.log(`\n-> ${path.relative(REPO, args.out)}`);
}

await main();
