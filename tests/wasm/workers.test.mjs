// Models placed over wasm workers (loadModel's workers option): each stage a model of its own
// in a worker with its own WebAssembly instance, holding only its weights, its memory capped at
// the worker's. Outputs are bitwise one engine's, one input at a time and streamed; bad options
// and inputs are refused by name. (stage_models_test cuts the tiny zoo's models natively.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { zooInput, zooModel } from './models.mjs';
import { importFromApp } from './package.mjs';

const { createEngine, TesseraError } = await importFromApp('tessera');

let engine;
after(() => engine.dispose());

const MIB = 2 ** 20;

// x [3, K] -> Gemm (N1 columns, B transposed, a bias) -> Relu -> MatMul (N2 columns). At the
// default sizes, 57 MiB of weights: held twice (loaded and packed), more than a worker of
// 64 MiB, so both layers split into column pieces over several workers.
function wideModel({ k = 2000, n1 = 3000, n2 = 2000 } = {}) {
  const shapes = { w1: [n1, k], b1: [n1], w2: [n1, n2] };
  let offset = 0;
  const initializers = Object.entries(shapes).map(([name, shape]) => {
    const length = 4 * shape.reduce((a, b) => a * b, 1);
    const entry = { name, dtype: 'float32', shape, offset, length };
    offset += length;
    return entry;
  });
  const weights = new Float32Array(offset / 4).map((_, i) => Math.sin(i * 0.37) * 0.1);
  const json = {
    format: 'tessera', version: 1, name: 'wide',
    inputs: [{ name: 'x', dtype: 'float32', shape: [3, k] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: [3, n2] }],
    initializers,
    nodes: [
      { op: 'Gemm', name: 'fc1', inputs: ['x', 'w1', 'b1'], outputs: ['h'], attributes: { transB: 1 } },
      { op: 'Relu', name: 'relu', inputs: ['h'], outputs: ['r'] },
      { op: 'MatMul', name: 'fc2', inputs: ['r', 'w2'], outputs: ['y'] },
    ],
  };
  return { json, weights: new Uint8Array(weights.buffer), input: (seed) => ({
    x: { data: new Float32Array(3 * k).map((_, i) => Math.cos(i + seed)), dims: [3, k] } }) };
}

const wide = wideModel();
const expected = new Map();  // seed -> one engine's outputs
before(async () => {
  engine = await createEngine({ threads: 2 });
  const single = await engine.loadModel(wide.json, wide.weights);
  for (const seed of [1, 2, 3, 4, 5]) expected.set(seed, await single.run(wide.input(seed)));
  await single.dispose();
});

// A 1x1 convolution of 4096 channels: 64 MiB of weights in one layer.
function convModel() {
  return {
    format: 'tessera', version: 1, name: 'conv',
    inputs: [{ name: 'x', dtype: 'float32', shape: [1, 4096, 1, 1] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: [1, 4096, 1, 1] }],
    initializers: [{ name: 'w', dtype: 'float32', shape: [4096, 4096, 1, 1], offset: 0, length: 4 * 4096 * 4096 }],
    nodes: [{ op: 'Conv', name: 'conv', inputs: ['x', 'w'], outputs: ['y'] }],
  };
}

// Each worker's WebAssembly memory stays within the worker's (capped, in the threaded build).
async function checkMemory(model) {
  for (const [s, { wasmBytes }] of (await model.memoryUsage()).entries()) {
    assert.ok(wasmBytes <= model.placement.workerMemory, `worker ${s}: ${wasmBytes} bytes`);
  }
}

describe('models over wasm workers', () => {
  it('a model larger than one worker: layers split into column pieces, each worker within its memory, ' +
     'bitwise one engine\'s outputs', async () => {
    const model = await engine.loadModel(wide.json, wide.weights, { workers: 8, workerMemory: '64MiB' });
    const { placement } = model;
    assert.equal(placement.splitNodes, 2);
    assert.ok(placement.stages.length >= 3, JSON.stringify(placement.stages));
    for (const stage of placement.stages) {
      assert.ok(2 * stage.weightBytes <= stage.memoryBytes && stage.memoryBytes <= 64 * MIB, JSON.stringify(stage));
    }
    assert.deepEqual(model.inputs, [{ name: 'x', dtype: 'float32', dims: [3, 2000] }]);
    assert.deepEqual(await model.run(wide.input(1)), expected.get(1));
    await checkMemory(model);
    await model.dispose();
  });

  it('a stream through the stages gives every input its outputs, in order', async () => {
    const model = await engine.loadModel(wide.json, wide.weights,
                                         { workers: 8, workerMemory: '64MiB', objective: 'throughput' });
    const seeds = [1, 2, 3, 4, 5];
    async function* source() {
      for (const seed of seeds) yield wide.input(seed);
    }
    const outputs = [];
    for await (const output of model.runStream(source())) outputs.push(output);
    assert.deepEqual(outputs, seeds.map((seed) => expected.get(seed)));
    await model.dispose();
  });

  it('an engine capped by maximumMemory refuses what does not fit as out of memory, and keeps working',
     async () => {
    const capped = await createEngine({ threads: 1, maximumMemory: 64 * MIB });
    await assert.rejects(capped.loadModel(wide.json, wide.weights), /out of memory/);
    // 28 MiB of weights fit; their packed copy beside them may not: said before compiling.
    const k = 1024, n = 7 * 1024;
    const matmul = {
      format: 'tessera', version: 1, name: 'matmul',
      inputs: [{ name: 'x', dtype: 'float32', shape: [1, k] }], outputs: [{ name: 'y', dtype: 'float32', shape: [1, n] }],
      initializers: [{ name: 'w', dtype: 'float32', shape: [k, n], offset: 0, length: 4 * k * n }],
      nodes: [{ op: 'MatMul', name: 'mm', inputs: ['x', 'w'], outputs: ['y'] }],
    };
    await assert.rejects(capped.loadModel(matmul, new Uint8Array(4 * k * n)),
                         /^TesseraError: out of memory: compiling this model needs about \d+ MiB/);
    const zoo = zooModel('tiny_cnn');
    const input = zooInput(zoo, 5);
    const model = await capped.loadModel(zoo.url);
    assert.ok(Object.keys(await model.run({ [input.name]: input })).length > 0);
    assert.ok((await capped.memoryUsage()).wasmBytes <= 64 * MIB);
    await capped.dispose();
    await assert.rejects(createEngine({ threads: 1, maximumMemory: 1 * MIB }), /maximumMemory must be/);
  });

  it('refuses bad options and inputs by name, and keeps working', async () => {
    const zoo = zooModel('tiny_cnn');
    await assert.rejects(engine.loadModel(zoo.url, { workers: 0 }), /workers must be an integer from 1 to 64/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, workerMemory: '12 parsecs' }),
                         /workerMemory must be a number of bytes or a size/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, objective: 'speed' }), /objective must be/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, threads: 0.5 }), /threads must be an integer/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, workerMemory: '1MiB' }),
                         /workerMemory must be 0 \(no limit\) or at least 64 MiB/);
    // A layer that cannot be split, its two copies more than any worker holds.
    await assert.rejects(engine.loadModel(convModel(), new Uint8Array(4 * 4096 * 4096), { workers: 2, workerMemory: '96MiB' }),
                         (error) => error instanceof TesseraError && /layer 'conv' alone needs/.test(error.message));
    const model = await engine.loadModel(zoo.url, { workers: 2, workerMemory: '64MiB' });
    const input = zooInput(zoo, 3);
    await assert.rejects(model.run({ nope: input }), /input "nope": the model has no such input/);
    await assert.rejects(model.run({}), new RegExp(`input "${input.name}": missing`));
    await assert.rejects(model.run({ [input.name]: { data: input.data, dims: [1, 2, 3] } }), new RegExp(input.name));
    const outputs = await model.run({ [input.name]: input });
    assert.ok(Object.keys(outputs).length > 0);
    await model.dispose();
    await assert.rejects(model.run({ [input.name]: input }), /disposed/);
  });
});
