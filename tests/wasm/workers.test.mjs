// Models placed over wasm workers (loadModel's workers option): each stage a model of its own
// in a worker with its own WebAssembly instance, holding only its weights. Outputs are bitwise
// one engine's, one input at a time and streamed; bad options and inputs are refused by name.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { TINY_MODELS, zooInput, zooModel } from './models.mjs';
import { importFromApp } from './package.mjs';

const { createEngine, TesseraError } = await importFromApp('tessera');

let engine;
before(async () => {
  engine = await createEngine({ threads: 2 });
});
after(() => engine.dispose());

// The least memory per worker (within 1/64 of the whole model's) that still places the model
// over `workers` workers: the most stages memory can force.
async function tightMemory(json, weights, workers) {
  const whole = (await engine.place(json, weights, { workers: 1 })).stages[0].memoryBytes;
  let [fails, fits] = [0, whole];
  while (fits - fails > whole / 64) {
    const middle = Math.ceil((fails + fits) / 2);
    const fit = await engine.place(json, weights, { workers, workerMemory: middle }).then(() => true, () => false);
    [fails, fits] = fit ? [fails, middle] : [middle, fits];
  }
  return fits;
}

async function placed(zoo, workers, objective = 'latency') {
  const workerMemory = await tightMemory(zoo.url, undefined, workers);
  return engine.loadModel(zoo.url, { workers, workerMemory, objective });
}

// x [3, 200] -> Gemm (700 columns, B transposed, a bias) -> Relu -> MatMul (333 columns): two
// layers wide enough to split into 64-column pieces.
function wideModel() {
  const shapes = { w1: [700, 200], b1: [700], w2: [700, 333] };
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
    inputs: [{ name: 'x', dtype: 'float32', shape: [3, 200] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: [3, 333] }],
    initializers,
    nodes: [
      { op: 'Gemm', name: 'fc1', inputs: ['x', 'w1', 'b1'], outputs: ['h'], attributes: { transB: 1 } },
      { op: 'Relu', name: 'relu', inputs: ['h'], outputs: ['r'] },
      { op: 'MatMul', name: 'fc2', inputs: ['r', 'w2'], outputs: ['y'] },
    ],
  };
  return { json, weights: new Uint8Array(weights.buffer) };
}

describe('models over wasm workers', () => {
  for (const [index, name] of TINY_MODELS.entries()) {
    it(`${name}: over 2 and 3 workers, bitwise one engine's outputs`, async () => {
      const zoo = zooModel(name);
      const input = zooInput(zoo, 300 + index);
      const single = await engine.loadModel(zoo.url);
      const expected = await single.run({ [input.name]: input });
      await single.dispose();
      for (const workers of [2, 3]) {
        const model = await placed(zoo, workers);
        assert.ok(model.placement.stages.length >= 2, `${workers} workers: ${model.placement.stages.length} stage`);
        for (const stage of model.placement.stages) assert.ok(stage.memoryBytes <= model.placement.workerMemory);
        assert.deepEqual(model.inputs, [{ name: input.name, dtype: 'float32', dims: input.dims }]);
        assert.deepEqual(await model.run({ [input.name]: input }), expected, `${workers} workers`);
        await model.dispose();
      }
    });
  }

  it('weights given as bytes, and layers larger than half a worker split into column pieces', async () => {
    const { json, weights } = wideModel();
    const x = { data: new Float32Array(600).map((_, i) => Math.cos(i)), dims: [3, 200] };
    const single = await engine.loadModel(json, weights);
    const expected = await single.run({ x });
    await single.dispose();
    // 512 KiB per worker: at most 256 KiB of weights per piece, so both layers split.
    const model = await engine.loadModel(json, weights, { workers: 4, workerMemory: '512KiB' });
    assert.equal(model.placement.splitNodes, 2);
    assert.ok(model.placement.stages.length >= 3, JSON.stringify(model.placement.stages));
    for (const stage of model.placement.stages) assert.ok(stage.memoryBytes <= 512 * 1024);
    assert.deepEqual(await model.run({ x }), expected);
    await model.dispose();
  });

  it('a stream through the stages gives every input its outputs, in order', async () => {
    const zoo = zooModel('tiny_mobilenet');
    const single = await engine.loadModel(zoo.url);
    const inputs = [1, 2, 3, 4, 5, 6].map((seed) => ({ [zoo.model.inputs[0].name]: zooInput(zoo, seed) }));
    const expected = [];
    for (const input of inputs) expected.push(await single.run(input));
    await single.dispose();
    const model = await placed(zoo, 3, 'throughput');
    async function* source() {
      for (const input of inputs) yield input;
    }
    const outputs = [];
    for await (const output of model.runStream(source())) outputs.push(output);
    assert.deepEqual(outputs, expected);
    await model.dispose();
  });

  it('refuses bad options and inputs by name, and keeps working', async () => {
    const zoo = zooModel('tiny_cnn');
    await assert.rejects(engine.loadModel(zoo.url, { workers: 0 }), /workers must be an integer from 1 to 64/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, workerMemory: '12 parsecs' }),
                         /workerMemory must be a number of bytes or a size/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, objective: 'speed' }), /objective must be/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, threads: 0.5 }), /threads must be an integer/);
    await assert.rejects(engine.loadModel(zoo.url, { workers: 2, workerMemory: '1KiB' }),
                         (error) => error instanceof TesseraError && /more than any worker's 1.0 KiB/.test(error.message));
    const model = await engine.loadModel(zoo.url, { workers: 2, workerMemory: '1MiB' });
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
