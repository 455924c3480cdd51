#!/usr/bin/env node
// The tiling planners side by side natively: `tessera bench --planner default,search` on the
// zoo and PP-OCR models, repeated over rounds that each visit every model once, so that a
// noisy stretch of the shared host lands on one round of every model rather than on all
// rounds of one. Prints each round's speed of `search` relative to `default` (above 1: the
// searched plan is faster; each from one bench run's interleaved medians) and their median,
// and how fast the two cores answered each other around each run (`tessera bench`: above
// about 300 ns, the host had placed them apart, and two-thread runs are slower).
//
//   node scripts/bench-planners.mjs [--models a,b] [--threads 2] [--scheduler dynamic]
//                                   [--rounds 3] [--runs 20] [--profile FILE] [--json FILE]
//
// --profile: the profile both planners price with; without it, the one `tessera calibrate`
// saved for this ISA, else the uncalibrated guesses.
//
// Models from scripts/native-models.mjs (default: the zoo and PP-OCR at the benchmarks' shapes,
// batch 8 included). Run on an idle machine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { MODELS, cli, option, root } from './native-models.mjs';

const DEFAULT_MODELS = ['mobilenetv2_b1', 'mobilenetv2_b8', 'resnet50_b1', 'resnet50_b8', 'vgg16_b1', 'bert_base',
  'inception_v3', 'ppocr_det', 'ppocr_rec', 'ppocr_cls'];
const names = option('models', DEFAULT_MODELS.join(',')).split(',');
const threads = option('threads', '2');
const scheduler = option('scheduler', 'dynamic');
const rounds = Number(option('rounds', '3'));
const runs = option('runs', '20');
const jsonOut = option('json', null);
const profile = option('profile', null);

for (const name of names) {
  if (!MODELS[name]) throw new Error(`unknown model ${name}; known: ${Object.keys(MODELS).join(', ')}`);
}
const present = names.filter((name) => fs.existsSync(path.join(root, MODELS[name][0])));
for (const name of names) {
  if (!present.includes(name)) console.log(`${name}: ${MODELS[name][0]} missing, skipped`);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-planners-'));
const ratios = Object.fromEntries(present.map((name) => [name, []]));
const medians = Object.fromEntries(present.map((name) => [name, []]));
for (let round = 1; round <= rounds; ++round) {
  for (const name of present) {
    const [file, extra] = MODELS[name];
    const out = path.join(tmp, `${name}.json`);
    execFileSync(cli, ['bench', path.join(root, file), ...extra, '--threads', threads, '--scheduler', scheduler,
      '--planner', 'default,search', '--runs', runs, '--json', out, ...(profile ? ['--profile', profile] : [])],
      { stdio: 'ignore' });
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    const configs = report.configurations;
    // How fast the cores answered each other around the runs: the host's state they met.
    const cores = report.core_round_trip_ns;
    const state = cores ? `, cores ${cores.before.toFixed(0)} / ${cores.after.toFixed(0)} ns` : '';
    const ms = (planner) => configs.find((c) => c.planner === planner).median_ms;
    ratios[name].push(ms('default') / ms('search'));
    medians[name].push({ default_ms: ms('default'), search_ms: ms('search') });
    console.log(`round ${round} ${name}: default ${ms('default').toFixed(3)} ms, search ${ms('search').toFixed(3)} ms, ` +
      `search ${(ms('default') / ms('search')).toFixed(2)}x${state}`);
  }
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`\nsearch against default, ${threads} threads, ${scheduler} scheduler (above 1: search faster)`);
console.log(`${'model'.padEnd(16)} ${'rounds'.padEnd(24)} median`);
for (const name of present) {
  const each = ratios[name].map((r) => `${r.toFixed(2)}x`).join(' ');
  console.log(`${name.padEnd(16)} ${each.padEnd(24)} ${median(ratios[name]).toFixed(2)}x`);
}
if (jsonOut) {
  const models = present.map((name) => ({ model: name, rounds: medians[name], ratio: median(ratios[name]) }));
  fs.writeFileSync(jsonOut, JSON.stringify({ threads: Number(threads), scheduler, models }, null, 1));
}
fs.rmSync(tmp, { recursive: true, force: true });
