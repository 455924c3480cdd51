#!/usr/bin/env node
// Two builds of the CLI side by side on the same models: what a kernel change is worth, on a
// host whose speed drifts by more than the change. Each pair times both builds with
// `tessera predict --measure` (the whole run, and every node's tiles summed), in ABBA order:
// on the 2-vCPU hosts the second of two back-to-back processes ran 6 % slower, so a fixed
// order would credit that to the build timed first.
//
//   node scripts/compare-builds.mjs --old OLD/tessera [--new build/tessera] [--models a,b]
//                                   [--threads 1] [--pairs 10] [--runs 5] [--nodes REGEX]
//
// Prints, per model, both builds' median latency, old / new, and in how many pairs the new
// build was faster. With --nodes, also the tiles of the nodes whose names match REGEX and of
// the others, and the first as a share of the second in the same run: the share is free of
// the host's drift, but moves as much when the other nodes slow down as when the matching ones
// speed up (a change to a shared kernel can move both: docs/benchmarks.md, "A Zen 3 host"),
// so read the sums beside it. Giving the same build twice shows the host's floor.
//
// Models from scripts/native-models.mjs (default: ResNet-50). Run on an idle machine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { median } from './bench-models.mjs';
import { MODELS, cli, option, root } from './native-models.mjs';

const oldCli = option('old', null);
const newCli = option('new', cli);
const names = option('models', 'resnet50_b1').split(',');
const threads = option('threads', '1');
const pairs = Number(option('pairs', '10'));
const runs = option('runs', '5');
const nodes = option('nodes', null);
if (!oldCli) throw new Error('--old PATH: the CLI to compare against (for example a copy of build/tessera before a change)');
for (const name of names) {
  if (!MODELS[name]) throw new Error(`unknown model ${name}; known: ${Object.keys(MODELS).join(', ')}`);
  if (!fs.existsSync(path.join(root, MODELS[name][0]))) {
    throw new Error(`${name}: ${MODELS[name][0]} missing (build/models/tessera-zoo all -o build/test-zoo-full; ` +
      'PP-OCR: scripts/ocr-models.mjs)');
  }
}
if (!(Number.isInteger(pairs) && pairs > 0)) throw new Error(`--pairs must be a positive integer, not ${option('pairs')}`);
const pattern = nodes ? new RegExp(nodes) : null;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-builds-'));

// One timed process: the whole run's latency, and the tiles of the matching nodes and of the others.
function time(binary, name) {
  const [file, extra] = MODELS[name];
  const out = path.join(tmp, 'predict.json');
  execFileSync(binary, ['predict', path.join(root, file), ...extra, '--threads', threads, '--measure', '--runs', runs,
    '--json', out], { stdio: 'ignore' });
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  let matched = 0;
  let others = 0;
  for (const node of report.nodes) {
    if (pattern && pattern.test(node.name)) matched += node.measured_ms;
    else others += node.measured_ms;
  }
  return { ms: report.model.measured_ms, matched, others };
}

for (const name of names) {
  const results = [];
  for (let pair = 0; pair < pairs; ++pair) {
    const order = pair % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
    const result = {};
    for (const build of order) result[build] = time(build === 'old' ? oldCli : newCli, name);
    results.push(result);
  }
  const ms = (build) => median(results.map((r) => r[build].ms));
  const faster = results.filter((r) => r.new.ms < r.old.ms).length;
  console.log(`${name}, ${threads} thread(s), ${pairs} pairs of ${runs} runs: old ${ms('old').toFixed(3)} ms, ` +
    `new ${ms('new').toFixed(3)} ms, old / new ${(ms('old') / ms('new')).toFixed(3)}; new faster in ${faster} of ${pairs}`);
  if (pattern && results[0].old.matched === 0) {
    console.log(`  no node of ${name} matches ${nodes}`);
  } else if (pattern) {
    const shareOf = (r) => r.matched / r.others;
    const share = (build) => median(results.map((r) => shareOf(r[build])));
    const sum = (build, part) => median(results.map((r) => r[build][part])).toFixed(3);
    const lower = results.filter((r) => shareOf(r.new) < shareOf(r.old)).length;
    console.log(`  nodes matching ${nodes}, their tiles: old ${sum('old', 'matched')} ms, new ` +
      `${sum('new', 'matched')} ms; the other nodes': old ${sum('old', 'others')} ms, new ${sum('new', 'others')} ms`);
    console.log(`  the first as a share of the second: old ${share('old').toFixed(4)}, new ${share('new').toFixed(4)}, ` +
      `old / new ${(share('old') / share('new')).toFixed(3)}; new lower in ${lower} of ${pairs}`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
