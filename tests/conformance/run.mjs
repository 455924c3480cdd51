// The ONNX backend conformance run: every test whose ops Tessera claims is converted (the
// JS converter), run (the native CLI) and compared with the shipped outputs. Writes
// docs/conformance.md; exits non-zero when a claimed test fails, when nothing is claimed or
// when --filter matches no test. Claimed ops without a runnable test in the suite (none uses
// them, or only in data types Tessera lacks) are listed in the report, not failed: the C++ op
// tests cover them.
//
//   node tests/conformance/run.mjs [--cli build/tessera] [--filter REGEX] [--out docs/conformance.md] [--verbose]
//                                  [--suite DIR (default: /usr/share/libonnx-testdata/data)]
//
// Graph inputs are fed at run time in their own dtype (`tessera run --input NAME=FILE.bin`,
// raw little-endian values), with their ONNX dims pinned at conversion, except the inputs the
// operator schema says must be known when the model is specialised: `shape_inputs` (shapes,
// axes, k, repeats, pads, ...) and `constant_inputs` (weights the engine packs, parameters
// it folds: Conv's W and B, normalization scales, Clip's bounds, Gemm's C, ...). Those are
// baked into the model as initializers. Outputs are
// compared by dtype: float32 at the backend runner's tolerances, integers and bools exactly,
// dims exactly. With --filter only the matching tests run, and the report is written only
// when --out is given.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { convertOnnx } from '../../wasm/js/convert/index.js';
import schema from '../../wasm/js/convert/op_schema.js';
import { exclusionReason, typeExclusionReason } from './exclusions.mjs';
import { writeReport } from './report.mjs';
import {
  bakeInputs, dataTypeName, decodeModel, dims, discoverTests, readDataSets, SUITE_ROOT, tensorBytes, tensorValues,
  valuesFromBytes, valueType,
} from './suite.mjs';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
// numpy.testing.assert_allclose as the ONNX backend runner calls it (equal_nan=True).
const RTOL = 1e-3;
const ATOL = 1e-7;

function parseArgs(argv) {
  const args = { cli: path.join(REPO, 'build/tessera'), filter: null, out: null, verbose: false, suite: SUITE_ROOT };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (key === '--verbose') {
      args.verbose = true;
      --i;
      continue;
    }
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === '--cli') args.cli = path.resolve(value);
    else if (key === '--filter') args.filter = new RegExp(value);
    else if (key === '--out') args.out = path.resolve(value);
    else if (key === '--suite') args.suite = path.resolve(value);
    else throw new Error(`unknown argument ${key}`);
  }
  if (!args.filter && !args.out) args.out = path.join(REPO, 'docs/conformance.md');
  return args;
}

/** The ONNX op types Tessera claims: the operator schema's (tests/js/schema.test.mjs ties it to the engine). */
function claimedOps() {
  return new Set(Object.keys(schema.ops));
}

/**
 * The graph inputs that must be known when the model is specialised: those some node reads
 * at a position its op's schema lists in `shape_inputs` or `constant_inputs`.
 */
function specialisationInputs(model) {
  const names = new Set();
  for (const node of model.graph.node) {
    const entry = schema.ops[node.opType] ?? {};
    for (const i of [...(entry.shape_inputs ?? []), ...(entry.constant_inputs ?? [])]) {
      if (node.input[i]) names.add(node.input[i]);
    }
  }
  return names;
}

/** null when `actual` (values of `dtype`) matches `expected`, else where it differs. */
function compare(actual, expected, dtype) {
  if (actual.length !== expected.length) return `has ${actual.length} values, expected ${expected.length}`;
  for (let i = 0; i < expected.length; ++i) {
    const [a, e] = [actual[i], expected[i]];
    if (dtype === 'float32') {
      if (a === e || (Number.isNaN(e) && Number.isNaN(a))) continue;  // also equal infinities
      if (Math.abs(a - e) <= ATOL + RTOL * Math.abs(e)) continue;
    } else if (a === e) {  // integers and bools (0 or 1) exactly
      continue;
    }
    return `value ${i}: got ${a}, expected ${e}`;
  }
  return null;
}

/** The reason a data set cannot run on Tessera's types, or null. */
function typeExclusion(model, fed) {
  for (const input of model.graph.input.filter((i) => fed.includes(i.name))) {
    const reason = typeExclusionReason(valueType(input));
    if (reason) return reason;
  }
  for (const output of model.graph.output) {
    const reason = typeExclusionReason(valueType(output));
    if (reason) return reason;
  }
  return null;
}

/** Runs one data set through convert + CLI; returns {} on success, { failed } or { excluded }. */
async function runDataSet(cli, model, set, work) {
  const initializers = new Set(model.graph.initializer.map((t) => t.name));
  const graphInputs = model.graph.input.filter((i) => !initializers.has(i.name));
  if (set.inputs.length > graphInputs.length) {
    return { failed: `the data set has ${set.inputs.length} inputs, the model ${graphInputs.length}` };
  }
  // Data set inputs bind to the graph inputs in order, as in the ONNX backend runner.
  set.inputs.forEach((t, i) => { t.name = graphInputs[i].name; });
  const known = specialisationInputs(model);
  const baked = set.inputs.filter((t) => known.has(t.name));
  const fed = set.inputs.filter((t) => !known.has(t.name));
  const excluded = typeExclusion(model, fed.map((t) => t.name));
  if (excluded) return { excluded };

  let converted;
  try {
    const inputShapes = Object.fromEntries(fed.map((t) => [t.name, dims(t)]));
    converted = convertOnnx(bakeInputs(model, baked), { inputShapes });
  } catch (error) {
    return { failed: `convert: ${error.message}` };
  }
  fs.writeFileSync(path.join(work, 'model.json'), JSON.stringify({ ...converted.json, weights: 'model.bin' }));
  fs.writeFileSync(path.join(work, 'model.bin'), converted.weights);
  const inputArgs = fed.flatMap((t, i) => {
    const file = path.join(work, `input_${i}.bin`);
    fs.writeFileSync(file, tensorBytes(t));
    return ['--input', `${t.name}=${file}`];
  });
  const outDir = path.join(work, 'out');
  fs.rmSync(outDir, { recursive: true, force: true });
  try {
    await run(cli, ['run', path.join(work, 'model.json'), ...inputArgs, '--output-dir', outDir]);
  } catch (error) {
    return { failed: `run: ${(error.stderr || error.message).trim()}` };
  }
  const listing = JSON.parse(fs.readFileSync(path.join(outDir, 'outputs.json'), 'utf8')).outputs;
  for (let i = 0; i < set.outputs.length; ++i) {
    const expected = set.outputs[i];
    const name = model.graph.output[i]?.name;
    const produced = listing.find((o) => o.name === name) ?? listing[i];
    if (!produced) return { failed: `output ${i} "${name}" was not produced` };
    const want = { dims: dims(expected), dtype: dataTypeName(expected.dataType) };
    if (produced.dtype !== want.dtype) return { failed: `output ${i} "${name}" is ${produced.dtype}, expected ${want.dtype}` };
    if (JSON.stringify(produced.dims) !== JSON.stringify(want.dims)) {
      return { failed: `output ${i} "${name}" dims ${JSON.stringify(produced.dims)}, expected ${JSON.stringify(want.dims)}` };
    }
    const actual = valuesFromBytes(fs.readFileSync(path.join(outDir, produced.file)), produced.dtype);
    const mismatch = compare(actual, tensorValues(expected), want.dtype);
    if (mismatch) return { failed: `output ${i} "${name}" (${want.dtype}) ${mismatch}` };
  }
  return {};
}

/** Runs every data set of a test; returns { status, detail } (status passed, failed or excluded). */
async function runDataSets(test, cli) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-conformance-'));
  try {
    for (const set of readDataSets(test.dir)) {
      const outcome = await runDataSet(cli, decodeModel(test.dir), set, work);
      if (outcome.excluded) return { status: 'excluded', detail: outcome.excluded };
      if (outcome.failed) return { status: 'failed', detail: outcome.failed };
    }
    return { status: 'passed' };
  } catch (error) {
    return { status: 'failed', detail: `runner: ${error.message}` };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function runTest(test, claimed, cli) {
  const model = decodeModel(test.dir);
  const ops = [...new Set(model.graph.node.map((n) => n.opType))];
  const unclaimed = ops.filter((op) => !claimed.has(op));
  if (unclaimed.length > 0) return { ...test, ops, status: 'unclaimed', detail: unclaimed.join(', ') };
  const outcome = await runDataSets(test, cli);
  const reason = exclusionReason(test.name);
  if (!reason) return { ...test, ops, ...outcome };
  // Excluded by name: it still runs, and one that passes means its rule is out of date.
  if (outcome.status === 'passed') {
    return { ...test, ops, status: 'failed', detail: `excluded (${reason}) but passes: remove its rule from exclusions.mjs` };
  }
  return { ...test, ops, status: 'excluded', detail: reason };
}

/**
 * Claimed ops without a runnable test here, as [{ op, why }]: no test of the suite uses them,
 * or every test that does is excluded (e.g. float64 or float16 data only). With a filter, only
 * the ops of the matching tests.
 */
function opsWithoutRunnableTest(results, claimed, filter) {
  const notes = [];
  for (const op of [...claimed].sort()) {
    const mine = results.filter((r) => r.status !== 'unclaimed' && r.ops.includes(op));
    if (mine.some((r) => r.status === 'passed' || r.status === 'failed')) continue;
    if (mine.length === 0) {
      if (!filter) notes.push({ op, why: 'no test in the suite uses it' });
      continue;
    }
    const reasons = [...new Set(mine.map((r) => r.detail))];
    notes.push({ op, why: `every test is excluded (${reasons.join('; ')})` });
  }
  return notes;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const claimed = claimedOps();
  if (claimed.size === 0) throw new Error('the operator schema claims no ops: nothing to check');
  const all = discoverTests(args.suite);
  if (all.length === 0) throw new Error(`no ONNX backend tests under ${args.suite} (is libonnx-testdata installed?)`);
  const tests = all.filter((t) => !args.filter || args.filter.test(t.name));
  if (tests.length === 0) throw new Error(`--filter ${args.filter} matches no test`);
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < tests.length) {
      const test = tests[next++];
      results.push(await runTest(test, claimed, args.cli));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, os.cpus().length) }, worker));
  results.sort((a, b) => a.name.localeCompare(b.name) || a.group.localeCompare(b.group));
  const notRunnable = opsWithoutRunnableTest(results, claimed, args.filter);
  if (args.out) writeReport(args.out, results, claimed, { filter: args.filter, notRunnable, rtol: RTOL, atol: ATOL });

  const failed = results.filter((r) => r.status === 'failed');
  const count = (s) => results.filter((r) => r.status === s).length;
  console.log(`conformance: ${count('passed')} passed, ${failed.length} failed, ${count('excluded')} excluded, ` +
    `${count('unclaimed')} use unclaimed ops` + (args.out ? ` (report: ${path.relative(process.cwd(), args.out)})` : ''));
  if (args.verbose) {
    for (const r of results.filter((x) => x.status === 'passed' || x.status === 'excluded')) {
      console.log(`${r.status.toUpperCase()} ${r.group}/${r.name}${r.detail ? `: ${r.detail}` : ''}`);
    }
  }
  for (const r of failed) console.log(`FAILED ${r.group}/${r.name}: ${r.detail}`);
  if (notRunnable.length > 0) {
    console.log(`claimed ops without a runnable backend test here (covered by the C++ op tests): ${notRunnable.map((n) => n.op).join(', ')}`);
  }
  process.exitCode = failed.length > 0 ? 1 : 0;
}

try {
  await main();
} catch (error) {
  console.error(`conformance: ${error.message}`);
  process.exitCode = 1;
}
