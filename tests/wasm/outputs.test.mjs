// The installed package computes what the native CLI computes: the tiny zoo models and
// MobileNetV2 on the same input, within 1e-5 of each output's magnitude (the native build
// uses FMA and wider vectors), and bitwise the same whatever the threads, the scheduler or
// the WebAssembly build.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';

import { relativeError, runTessera } from '../crosscheck/engines.mjs';
import { TINY_MODELS, zooInput, zooModel } from './models.mjs';
import { importFromApp } from './package.mjs';

const { createEngine } = await importFromApp('tessera');

const engines = {};
before(async () => {
  engines.two = await createEngine({ threads: 2 });
  engines.one = await createEngine({ threads: 1 });
  engines.single = await createEngine({ wasm: 'single' });
});
after(() => Promise.all(Object.values(engines).map((engine) => engine.dispose())));

describe('the threads build against the native CLI', () => {
  for (const [index, name] of [...TINY_MODELS, 'mobilenetv2_b1'].entries()) {
    it(`${name}: within 1e-5 of the native outputs, identical across threads, schedulers and builds`, async () => {
      const zoo = zooModel(name);
      const input = zooInput(zoo, 100 + index);
      const native = runTessera(zoo.json, input.name, input.data);

      const model = await engines.two.loadModel(zoo.url);
      const outputs = await model.run({ [input.name]: input.data });
      assert.deepEqual(Object.keys(outputs), Object.keys(native));
      for (const [output, { dims, data }] of Object.entries(outputs)) {
        assert.deepEqual(dims, native[output].dims, output);
        assert.ok(data instanceof Float32Array);
        const error = relativeError(data, native[output].data);
        assert.ok(error <= 1e-5, `${output}: relative error ${error}`);
      }

      for (const scheduler of ['barrier', 'shuffle']) {
        assert.deepEqual(await model.run({ [input.name]: input }, { scheduler }), outputs, scheduler);
      }
      for (const engine of [engines.one, engines.single]) {
        const other = await engine.loadModel(zoo.url);
        assert.deepEqual(await other.run({ [input.name]: input.data }), outputs, engine.features.build);
        await other.dispose();
      }
      await model.dispose();
    });
  }
});

describe('loading', () => {
  it('takes the JSON as an object, text or URL and the weights as ArrayBuffer, Uint8Array or URL', async () => {
    const zoo = zooModel('tiny_cnn');
    const bytes = fs.readFileSync(zoo.weights);
    const weightsBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const input = zooInput(zoo, 7);
    const sources = [
      [zoo.url],
      [zoo.url, new URL(`file://${zoo.weights}`)],
      [zoo.model, new Uint8Array(bytes)],
      [fs.readFileSync(zoo.json, 'utf8'), weightsBuffer],
    ];
    let expected = null;
    for (const [json, weights] of sources) {
      const model = await engines.two.loadModel(json, weights);
      const outputs = await model.run({ [input.name]: input });
      expected ??= outputs;
      assert.deepEqual(outputs, expected);
      await model.dispose();
    }
    assert.equal(weightsBuffer.byteLength, bytes.byteLength, "the caller's weights are not detached");
  });

  it('reports the build, the threads and the features it detected', () => {
    assert.equal(engines.two.threads, 2);
    assert.equal(engines.one.threads, 1);
    assert.equal(engines.single.threads, 1);
    assert.deepEqual(engines.two.features, { simd: true, threads: true, crossOriginIsolated: true, build: 'threads' });
    assert.equal(engines.single.features.build, 'single');
  });
});

describe('inspect and trace', () => {
  it('inspect() gives the compiled graph: inputs, outputs, ops, tiles, FLOPs and memory', async () => {
    const zoo = zooModel('mobilenetv2_b1');
    const model = await engines.two.loadModel(zoo.url);
    const info = model.inspect();
    assert.deepEqual(info.inputs, [{ name: 'image', dtype: 'float32', dims: [1, 3, 224, 224] }]);
    assert.deepEqual(info.outputs, [{ name: 'logits', dtype: 'float32', dims: [1, 1000] }]);
    assert.ok(info.nodes.some((node) => node.op === 'Conv'));
    assert.equal(info.tiles, info.nodes.reduce((sum, node) => sum + node.tiles, 0));
    assert.equal(info.flops, info.nodes.reduce((sum, node) => sum + node.flops, 0));
    assert.ok(info.flops > 0.5e9 && info.flops < 1e9, `MobileNetV2 FLOPs ${info.flops}`);
    assert.ok(info.arena_bytes > 0 && info.weight_bytes > 13e6);
    info.nodes.length = 0;
    assert.notEqual(model.inspect().nodes.length, 0, 'inspect() returns a copy');
    await model.dispose();
  });

  it('trace() is the tile timeline of the last traced run, on every thread', async () => {
    const zoo = zooModel('mobilenetv2_b1');
    const model = await engines.two.loadModel(zoo.url);
    assert.throws(() => model.trace(), /no traced run yet/);
    const input = zooInput(zoo, 3);
    await model.run({ [input.name]: input }, { trace: true });
    const tiles = model.trace().traceEvents.filter((event) => event.ph === 'X');
    assert.equal(tiles.length, model.inspect().tiles);
    assert.deepEqual([...new Set(tiles.map((event) => event.tid))].sort(), [0, 1]);
    assert.ok(tiles.every((event) => event.dur >= 0 && Number.isFinite(event.ts)));
    await model.dispose();
  });
});
