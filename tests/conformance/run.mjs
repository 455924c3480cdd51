// The ONNX backend conformance run: every test whose ops Tessera claims is converted (the
// JS converter), run (the native CLI) and compared with the shipped outputs at the suite's
// tolerances. Writes docs/conformance.md; exits non-zero when a claimed test fails.
//
//   node tests/conformance/run.mjs [--cli build/tessera] [--filter REGEX] [--out docs/conformance.md]
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { convertOnnx } from '../../wasm/js/convert/index.js';
import schema from '../../wasm/js/convert/op_schema.js';
import { exclusionReason } from './exclusions.mjs';
import { writeReport } from './report.mjs';
import {
  bakeInputs, dataTypeName, DataType, decodeModel, dims, discoverTests, floatValues, readDataSets,
} from './suite.mjs';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
// numpy.testing.assert_allclose as the ONNX backend runner calls it.
const RTOL = 1e-3;
const ATOL = 1e-7;

function parseArgs(argv) {
  const args = { cli: path.join(REPO, 'build/tessera'), filter: null, out: path.join(REPO, 'docs/conformance.md') };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (key === '--cli') args.cli = path.resolve(value);
    else if (key === '--filter') args.filter = new RegExp(value);
    else if (key === '--out') args.out = path.resolve(value);
    else throw new Error(`unknown argument ${key}`);
  }
  return args;
}

/** The ONNX op types Tessera claims: the operator schema's (tests/js/schema.test.mjs ties it to the engine). */
function claimedOps() {
  return new Set(Object.keys(schema.ops));
}

function compare(actual, expected) {
  if (actual.length !== expected.length) return `has ${actual.length} values, expected ${expected.length}`;
  for (let i = 0; i < expected.length; ++i) {
    const [a, e] = [actual[i], expected[i]];
    if (Number.isNaN(e) && Number.isNaN(a)) continue;
    if (!(Math.abs(a - e) <= ATOL + RTOL * Math.abs(e))) return `value ${i}: got ${a}, expected ${e}`;
  }
  return null;
}

/** Runs one data set through convert + CLI; returns null on success or the failure. */
async function runDataSet(cli, model, set, work) {
  const graphInputs = model.graph.input.filter((i) => !model.graph.initializer.some((t) => t.name === i.name));
  // The first input carries run-time data; later ones are baked into the model as
  // initializers, since the engine reads weights, shapes and indices as constants.
  set.inputs.forEach((t, i) => { t.name = graphInputs[i].name; });
  const [data, ...baked] = set.inputs;
  if (data.dataType !== DataType.FLOAT) return { excluded: `${dataTypeName(data.dataType)} input data` };
  for (const out of set.outputs) {
    if (out.dataType !== DataType.FLOAT) return { excluded: `${dataTypeName(out.dataType)} output data` };
  }
  let converted;
  try {
    converted = convertOnnx(bakeInputs(model, baked), { inputShapes: { [data.name]: dims(data) } });
  } catch (error) {
    return { failed: `convert: ${error.message}` };
  }
  fs.writeFileSync(path.join(work, 'model.json'), JSON.stringify({ ...converted.json, weights: 'model.bin' }));
  fs.writeFileSync(path.join(work, 'model.bin'), converted.weights);
  const values = floatValues(data);
  fs.writeFileSync(path.join(work, 'input.bin'), Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  try {
    await run(cli, ['run', path.join(work, 'model.json'), '--input', `${data.name}=${path.join(work, 'input.bin')}`,
      '--output-dir', path.join(work, 'out')]);
  } catch (error) {
    return { failed: `run: ${(error.stderr || error.message).trim()}` };
  }
  const listing = JSON.parse(fs.readFileSync(path.join(work, 'out/outputs.json'), 'utf8')).outputs;
  for (let i = 0; i < set.outputs.length; ++i) {
    const expected = set.outputs[i];
    const produced = listing[i];
    if (JSON.stringify(produced.dims) !== JSON.stringify(dims(expected))) {
      return { failed: `output ${i} dims ${JSON.stringify(produced.dims)}, expected ${JSON.stringify(dims(expected))}` };
    }
    const bytes = fs.readFileSync(path.join(work, 'out', produced.file));
    const actual = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const mismatch = compare(actual, floatValues(expected));
    if (mismatch) return { failed: `output ${i} ${mismatch}` };
  }
  return {};
}

async function runTest(test, claimed, cli) {
  const model = decodeModel(test.dir);
  const ops = [...new Set(model.graph.node.map((n) => n.opType))];
  const unclaimed = ops.filter((op) => !claimed.has(op));
  if (unclaimed.length > 0) return { ...test, ops, status: 'unclaimed', detail: unclaimed.join(', ') };
  const reason = exclusionReason(test.name);
  if (reason) return { ...test, ops, status: 'excluded', detail: reason };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-conformance-'));
  try {
    for (const set of readDataSets(test.dir)) {
      const outcome = await runDataSet(cli, decodeModel(test.dir), set, work);
      if (outcome.excluded) return { ...test, ops, status: 'excluded', detail: outcome.excluded };
      if (outcome.failed) return { ...test, ops, status: 'failed', detail: outcome.failed };
    }
    return { ...test, ops, status: 'passed' };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const claimed = claimedOps();
  const tests = discoverTests().filter((t) => !args.filter || args.filter.test(t.name));
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < tests.length) {
      const test = tests[next++];
      results.push(await runTest(test, claimed, args.cli));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, os.cpus().length) }, worker));
  results.sort((a, b) => a.name.localeCompare(b.name));
  if (!args.filter) writeReport(args.out, results, claimed);
  const failed = results.filter((r) => r.status === 'failed');
  const count = (s) => results.filter((r) => r.status === s).length;
  console.log(`conformance: ${count('passed')} passed, ${failed.length} failed, ${count('excluded')} excluded, ` +
    `${count('unclaimed')} use unclaimed ops`);
  for (const r of failed) console.log(`FAILED ${r.group}/${r.name}: ${r.detail}`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

await main();
