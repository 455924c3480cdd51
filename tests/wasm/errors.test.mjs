// Every error a user can cause rejects with an Error carrying the core's message (naming the
// node, tensor or input at fault), and the engine keeps working afterwards.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, it } from 'node:test';

import { randomInput } from '../crosscheck/engines.mjs';
import { zooModel } from './models.mjs';
import { importFromApp } from './package.mjs';

const { createEngine, TesseraError } = await importFromApp('tessera');

const mlp = zooModel('tiny_mlp');
const weights = fs.readFileSync(mlp.weights);
const x = randomInput(60, 5);  // tiny_mlp: x [3, 20] -> y [3, 8]

let engine;
let model;
let expected;
before(async () => {
  engine = await createEngine({ threads: 2 });
  model = await engine.loadModel(mlp.model, weights);
  expected = (await model.run({ x })).y.data;
});
after(() => engine.dispose());

// The error, then proof that the engine and its loaded model still work.
async function rejectsAndRecovers(promise, message) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof TesseraError, `${error.name}: ${error.message}`);
    assert.match(error.message, message);
    return true;
  });
  assert.deepEqual((await model.run({ x })).y.data, expected);
  const again = await engine.loadModel(mlp.model, weights);
  assert.deepEqual((await again.run({ x })).y.data, expected);
  await again.dispose();
}

it('malformed model JSON', () =>
  rejectsAndRecovers(engine.loadModel('{"format": "tessera", ', weights), /model JSON is malformed: .*line 1/));

it('an unknown op, named with its node', async () => {
  const broken = structuredClone(mlp.model);
  broken.nodes[1].op = 'Frobnicate';
  await rejectsAndRecovers(engine.loadModel(broken, weights), /nodes\[1\] .*unknown op "Frobnicate"/);
});

it('a wrong shape inside the model, named with its tensor', async () => {
  const broken = structuredClone(mlp.model);
  broken.outputs[0].shape = [3, 9];
  await rejectsAndRecovers(engine.loadModel(broken, weights),
    /outputs\[0\] "y": declared float32 \[3, 9\] but the graph computes float32 \[3, 8\]/);
});

it('truncated weights, named with the initializer', () =>
  rejectsAndRecovers(engine.loadModel(mlp.model, weights.subarray(0, weights.length - 8)),
    /initializers\[\d+\] ".*": bytes \[\d+, \d+\) lie past the end of the \d+-byte weights file/));

it('a model JSON file that does not exist', () =>
  rejectsAndRecovers(engine.loadModel(new URL('file:///nonexistent/model.json')), /cannot read model JSON/));

it('a wrong input name', () =>
  rejectsAndRecovers(model.run({ nope: x }), /input "nope": the model has no input of that name/));

it('a missing input', () => rejectsAndRecovers(model.run({}), /input "x": missing/));

it('a failed run leaves no input behind for the next one', async () => {
  await rejectsAndRecovers(model.run({ x, empty: { data: new Float32Array(0), dims: [0, 4] } }),
    /input "empty": dims \[0, 4\] have a zero or are too large/);
  await rejectsAndRecovers(model.run({ x, nope: x }), /input "nope": the model has no input of that name/);
  await rejectsAndRecovers(model.run({}), /input "x": missing/);
});

it('wrong input dims', () =>
  rejectsAndRecovers(model.run({ x: { data: x, dims: [4, 15] } }), /input "x": dim 0 is fixed at 3, got 4/));

it('data and dims that disagree', () =>
  rejectsAndRecovers(model.run({ x: { data: x, dims: [3, 21] } }), /input "x": has 60 values, dims \[3, 21\] need 63/));

it('a wrong input dtype', async () => {
  await rejectsAndRecovers(model.run({ x: Float64Array.from(x) }), /input "x": expected a Float32Array, BigInt64Array, Int32Array or Uint8Array, got Float64Array/);
  await rejectsAndRecovers(model.run({ x: Array.from(x) }), /input "x": expected a Float32Array, BigInt64Array, Int32Array or Uint8Array, got Array/);
});

it('a model too large for WebAssembly memory is out of memory, not an abort', async () => {
  const side = 16384;  // 1 GiB per tensor: four of them do not fit in 4 GiB
  const tensor = (name) => ({ name, dtype: 'float32', shape: [side, side] });
  const huge = {
    format: 'tessera', version: 1, name: 'huge',
    inputs: [tensor('a'), tensor('b')], outputs: [tensor('d')], initializers: [],
    nodes: [{ name: 'sum', op: 'Add', inputs: ['a', 'b'], outputs: ['c'] },
            { name: 'product', op: 'Mul', inputs: ['c', 'a'], outputs: ['d'] }],
  };
  const before = await engine.memoryUsage();
  await rejectsAndRecovers(engine.loadModel(huge), /^out of memory: running this model needs \d+ MiB/);
  const after = await engine.memoryUsage();
  // What stays is the error message kept on the engine.
  assert.ok(after.heapInUseBytes - before.heapInUseBytes < 1024,
    `the failed load holds memory: ${before.heapInUseBytes} -> ${after.heapInUseBytes} bytes in use`);
});

it('a disposed model, and a disposed engine', async () => {
  const doomed = await engine.loadModel(mlp.model, weights);
  await doomed.dispose();
  await rejectsAndRecovers(doomed.run({ x }), /the model was disposed/);

  const other = await createEngine({ threads: 1 });
  const orphan = await other.loadModel(mlp.model, weights);
  await other.dispose();
  await other.dispose();  // again: nothing
  await assert.rejects(orphan.run({ x }), /the model was disposed/);
  await assert.rejects(other.loadModel(mlp.model, weights), /the engine was disposed/);
});

it('bad arguments are TypeErrors that say what is expected', async () => {
  const typeError = (message) => (error) => error instanceof TypeError && message.test(error.message);
  await assert.rejects(createEngine({ threads: 0 }), typeError(/threads must be an integer from 1 to 64, got 0/));
  await assert.rejects(createEngine({ wasm: 'fast' }), typeError(/wasm must be "auto", "threads" or "single"/));
  await assert.rejects(engine.loadModel('model.json'), typeError(/a string must be the model JSON text; .* pass a URL/));
  await assert.rejects(engine.loadModel(mlp.model, 'model.bin'),
    typeError(/weights must be an ArrayBuffer, a Uint8Array or a URL/));
  await assert.rejects(model.run({ x }, { scheduler: 'fifo' }),
    typeError(/scheduler must be one of dynamic, barrier, shuffle, got "fifo"/));
  await assert.rejects(model.run(null), typeError(/inputs must be an object/));
  assert.deepEqual((await model.run({ x })).y.data, expected);
});
