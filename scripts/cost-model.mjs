#!/usr/bin/env node
// The cost model's error natively: `tessera predict --measure` on the zoo and PP-OCR models at
// 1 and 2 threads under both schedulers, summarised per model (whole-model error per
// configuration, per-node median and worst error, the dynamic/barrier ratio predicted and
// measured). The numbers docs/cost-model.md publishes.
//
//   node scripts/cost-model.mjs [--profile FILE] [--planner auto] [--models a,b] [--runs 10] [--rounds 1]
//                               [--json FILE]
//   node scripts/cost-model.mjs --scaling [--profile FILE] [--models a,b]
//
// --planner: how the models are tiled (tessera predict's; default auto, which searches with a
// calibrated profile). The search picks what the model prices cheapest, so its plans' errors
// lean low where the model errs; `--planner default` measures the model on the heuristic's.
// --rounds R: the whole-model measurement R times per model; each configuration keeps its
// round of the lowest measured latency, beside every round's (`rounds_ms`): a neighbour on this
// shared host only ever adds time, in spells of minutes.
// --scaling: no measurement; the projected latency at 1 to 64 threads under both schedulers,
// and how much faster the dynamic scheduler is predicted to be than the barrier one.
//
// Models come from build/test-zoo-full (zoo, batch 1) and build/ocr-models (PP-OCRv4, made by
// scripts/ocr-models.mjs); missing ones are skipped with a note. Run on an idle machine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { keepQuietest, median } from './bench-models.mjs';
import { MODELS, cli, option, root } from './native-models.mjs';

// Median and worst |error| of the nodes that take at least 1 % of the measured time (below
// that, a tile's timer resolution and the trace's own cost weigh), and the median over all.
function nodeErrors(nodes) {
  const total = nodes.reduce((s, n) => s + n.measured_ms, 0);
  const big = nodes.filter((n) => n.measured_ms >= 0.01 * total);
  const errors = big.map((n) => ({ name: n.name, op: n.op, error: (n.predicted_ms - n.measured_ms) / n.measured_ms }));
  errors.sort((a, b) => Math.abs(a.error) - Math.abs(b.error));
  const medianOf = (list) => (list.length ? list[Math.floor(list.length / 2)] : 0);
  const all = nodes.filter((n) => n.measured_ms > 0).map((n) => Math.abs((n.predicted_ms - n.measured_ms) / n.measured_ms));
  all.sort((a, b) => a - b);
  return { counted: errors.length, of: nodes.length, median: medianOf(errors.map((e) => Math.abs(e.error))),
    medianAll: medianOf(all), worst: errors.at(-1) };
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

const runs = option('runs', '10');
const rounds = Number(option('rounds', '1'));
if (!(rounds >= 1)) throw new Error('--rounds must be at least 1');
const scaling = process.argv.includes('--scaling');
const THREADS = [1, 2, 4, 8, 16, 32, 64];
const profile = option('profile', null);
const planner = option('planner', 'auto');
const names = option('models', Object.keys(MODELS).join(',')).split(',');
const report = {
  machine: `${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} cores`,
  date: new Date().toISOString(),
  planner,
  models: {},
};
for (const name of names) {
  const [json, extra] = MODELS[name] ?? [];
  if (!json) throw new Error(`unknown model ${name} (${Object.keys(MODELS).join(', ')})`);
  if (!fs.existsSync(path.join(root, json))) {
    console.log(`${name}: ${json} missing, skipped`);
    continue;
  }
  const out = path.join(os.tmpdir(), `tessera-cost-model-${name}.json`);
  if (scaling) {
    const args = ['predict', path.join(root, json), ...extra, '--threads', THREADS.join(','), '--scheduler',
      'dynamic,barrier', '--planner', planner, '--json', out];
    if (profile) args.push('--profile', profile);
    execFileSync(cli, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const result = JSON.parse(fs.readFileSync(out, 'utf8'));
    const at = (threads, scheduler) => result.configurations.find((c) => c.threads === threads && c.scheduler === scheduler);
    const rows = THREADS.map((t) => ({ threads: t, dynamic_ms: at(t, 'dynamic').predicted_ms,
      barrier_ms: at(t, 'barrier').predicted_ms, speedup: at(t, 'dynamic').predicted_speedup }));
    report.models[name] = { scaling: rows };
    console.log(`${name.padEnd(16)} ` + rows.map((r) => `${r.threads}t ${r.dynamic_ms.toFixed(2)} ms x${r.speedup.toFixed(1)}` +
      ` b/d ${(r.barrier_ms / r.dynamic_ms).toFixed(2)}`).join(' | '));
    continue;
  }
  const args = ['predict', path.join(root, json), ...extra, '--threads', '1,2', '--scheduler', 'dynamic,barrier',
    '--measure', '--runs', runs, '--planner', planner, '--json', out];
  if (profile) args.push('--profile', profile);
  const perNode = {};
  // Per-node errors at each thread count: one predict run per thread count, first config.
  for (const threads of ['1', '2']) {
    const nodeOut = `${out}.${threads}`;
    const nodeArgs = args.slice();
    nodeArgs[nodeArgs.indexOf('--threads') + 1] = threads;
    nodeArgs[nodeArgs.indexOf('--scheduler') + 1] = 'dynamic';
    nodeArgs[nodeArgs.indexOf('--json') + 1] = nodeOut;
    execFileSync(cli, nodeArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
    perNode[threads] = nodeErrors(JSON.parse(fs.readFileSync(nodeOut, 'utf8')).nodes);
  }
  let result = null;
  for (let round = 0; round < rounds; ++round) {
    execFileSync(cli, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const measured = JSON.parse(fs.readFileSync(out, 'utf8'));
    measured.configurations = measured.configurations.map((c, i) => keepQuietest(result?.configurations[i], c));
    result = measured;
  }
  const at = (threads, scheduler) => result.configurations.find((c) => c.threads === threads && c.scheduler === scheduler);
  const ratio = (key) => at(2, 'dynamic')[key] / at(2, 'barrier')[key];
  // Measured within each round (the two schedulers alternate run by run), then the median.
  const roundRatios = at(2, 'dynamic').rounds_ms.map((ms, r) => ms / at(2, 'barrier').rounds_ms[r]);
  const summary = {
    calibrated: result.model.calibrated,
    configurations: result.configurations,
    nodes: perNode,
    dynamic_over_barrier_2t: { predicted: ratio('predicted_ms'), measured: median(roundRatios) },
  };
  report.models[name] = summary;
  console.log(`\n${name}${summary.calibrated ? '' : ' (UNCALIBRATED)'}`);
  for (const c of result.configurations) {
    console.log(`  ${c.threads}t ${c.scheduler.padEnd(8)} predicted ${c.predicted_ms.toFixed(3).padStart(9)} ms` +
      `  measured ${c.measured_ms.toFixed(3).padStart(9)} ms  ${pct((c.predicted_ms - c.measured_ms) / c.measured_ms)}` +
      (rounds > 1 ? `  (rounds: ${c.rounds_ms.map((ms) => ms.toFixed(3)).join(', ')} ms)` : ''));
  }
  for (const [threads, e] of Object.entries(perNode)) {
    console.log(`  nodes ${threads}t: median |error| ${(100 * e.median).toFixed(1)}% over the ${e.counted} nodes of` +
      ` >= 1% of the time (${(100 * e.medianAll).toFixed(1)}% over all ${e.of}); worst ${e.worst ? `${e.worst.name} (${e.worst.op}) ${pct(e.worst.error)}` : '-'}`);
  }
  const r = summary.dynamic_over_barrier_2t;
  console.log(`  dynamic/barrier at 2t: predicted ${r.predicted.toFixed(3)}, measured ${r.measured.toFixed(3)}` +
    ` (${pct((r.predicted - r.measured) / r.measured)})`);
}
const jsonOut = option('json', null);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 1));
