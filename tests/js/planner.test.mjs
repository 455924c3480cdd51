// The tiling planner through the installed package: loadModel's { planner, planScheduler,
// plan }, model.plan() and model.savePlan(). In both builds searched and default tilings give
// bitwise the same outputs, and a saved plan loads back as the tiling it saved; plans made for
// another model or other dims, bad options and bad load options at the C API are refused with
// what is wrong named.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { TINY_MODELS, zooInput, zooModel } from '../wasm/models.mjs';
import { appDir, importFromApp } from '../wasm/package.mjs';
import { model as onnxModel, node } from './helpers.mjs';

const { createEngine, TesseraError } = await importFromApp('tessera');
const { convertOnnx } = await importFromApp('tessera/convert');

const BUILDS = ['threads', 'single'];
// On one thread the search keeps the default tiling of the tiny models: MobileNetV2 is where
// it tiles differently in both builds.
const COMPARED = [...TINY_MODELS, 'mobilenetv2_b1'];
const zoo = Object.fromEntries(COMPARED.map((name) => [name, zooModel(name)]));
const weightsOf = (name) => fs.readFileSync(zoo[name].weights);

const engines = {};
before(async () => {
  for (const wasm of BUILDS) engines[wasm] = await createEngine({ threads: 2, wasm });
});
after(() => Promise.all(Object.values(engines).map((engine) => engine.dispose())));

// The outputs of one run on the zoo model's seeded input.
async function outputsOf(model, name) {
  const { name: input, data } = zooInput(zoo[name], 7);
  return model.run({ [input]: data });
}

function assertSameOutputs(actual, expected, what) {
  for (const [name, { data }] of Object.entries(expected)) {
    assert.deepEqual(new Uint8Array(actual[name].data.buffer), new Uint8Array(data.buffer), `${what}: output ${name}`);
  }
}

// Another model taking tiny_mlp's input: y = Relu(x), x [3, 20], no weights.
const relu = convertOnnx(onnxModel({ inputs: [['x', [3, 20]]], outputs: [['y', [3, 20]]],
                                     nodes: [node('Relu', ['x'], ['y'])] }), { name: 'relu' });

const grids = (model) => model.inspect().nodes.map(({ name, grid }) => ({ name, grid }));

// A TesseraError whose message matches.
const engineError = (message) => (error) => {
  assert.ok(error instanceof TesseraError, `${error.name}: ${error.message}`);
  assert.match(error.message, message);
  return true;
};

for (const wasm of BUILDS) {
  describe(`the ${wasm} build`, () => {
    it('search and default tilings compute bitwise the same outputs on the tiny models and MobileNetV2', async () => {
      const engine = engines[wasm];
      let changedNodes = 0;
      for (const name of COMPARED) {
        const byDefault = await engine.loadModel(zoo[name].model, weightsOf(name));
        const searched = await engine.loadModel(zoo[name].model, weightsOf(name), { planner: 'search' });
        assert.equal(byDefault.inspect().planner, 'default');
        assert.equal(searched.inspect().planner, 'search');

        const defaultReport = await byDefault.plan();
        assert.equal(defaultReport.planner, 'default');
        assert.equal(defaultReport.searched, false);
        assert.ok(defaultReport.nodes.every(({ grid, defaultGrid }) => grid.join() === defaultGrid.join()));

        const report = await searched.plan();
        assert.deepEqual({ planner: report.planner, searched: report.searched, threads: report.threads },
                         { planner: 'search', searched: true, threads: engine.threads });
        assert.ok(report.planningMs > 0 && report.predictedMs > 0 && report.defaultPredictedMs > 0, name);
        assert.ok(report.predictedMs <= report.defaultPredictedMs, `${name}: the search's plan is predicted slower`);
        // One thread: nobody waits for a slowed one.
        assert.ok(engine.threads === 1 ? report.defaultExposureMs === 0 : report.defaultExposureMs > 0, name);
        assert.ok(report.predictedMs + report.exposureMs <= report.defaultPredictedMs + report.defaultExposureMs,
          `${name}: the search's plan is predicted slower with a slowed thread`);
        // Arena reuse is weighed on several threads only.
        assert.equal(typeof report.reuseMemory, 'boolean', name);
        assert.ok(engine.threads === 1 ? report.noReusePredictedMs === 0 : report.noReusePredictedMs > 0, name);
        // The report also lists relayouts that alias their input (gap@identity), which compile
        // to no tiles and which inspect() leaves out.
        const compiled = new Set(searched.inspect().nodes.map((n) => n.name));
        const reported = report.nodes.filter((n) => compiled.has(n.name));
        assert.deepEqual(reported.map(({ name: node, grid }) => ({ name: node, grid })), grids(searched));
        changedNodes += report.nodes.filter(({ grid, defaultGrid }) => grid.join() !== defaultGrid.join()).length;

        assertSameOutputs(await outputsOf(searched, name), await outputsOf(byDefault, name), name);
        await Promise.all([byDefault.dispose(), searched.dispose()]);
      }
      assert.ok(changedNodes > 0, 'the search tiled no node otherwise: nothing was compared');
    });

    it('a saved plan loads back, as an object or JSON text: planner "file", the same grids and outputs', async () => {
      const engine = engines[wasm];
      for (const name of TINY_MODELS) {
        const searched = await engine.loadModel(zoo[name].model, weightsOf(name), { planner: 'search' });
        const saved = await searched.savePlan();
        assert.deepEqual({ format: saved.format, model: saved.model, threads: saved.threads },
                         { format: 'tessera-plan', model: name, threads: engine.threads });
        const expected = await outputsOf(searched, name);
        for (const plan of [JSON.parse(JSON.stringify(saved)), JSON.stringify(saved)]) {
          const loaded = await engine.loadModel(zoo[name].model, weightsOf(name), { plan });
          assert.equal(loaded.inspect().planner, 'file');
          const report = await loaded.plan();
          assert.deepEqual({ planner: report.planner, searched: report.searched },
                           { planner: 'file', searched: false });
          assert.deepEqual(grids(loaded), grids(searched), name);
          assert.deepEqual(await loaded.savePlan(), { ...saved, planner: 'file' });
          assertSameOutputs(await outputsOf(loaded, name), expected, name);
          await loaded.dispose();
        }
        await searched.dispose();
      }
    });
  });
}

describe('refusals and the planner\'s inputs', () => {
  const mlp = zoo.tiny_mlp.model;  // x [3, 20] -> y [3, 8]
  const atBatch = (batch) => ({ ...mlp, inputs: [{ ...mlp.inputs[0], shape: [batch, 20] }],
                                outputs: [{ ...mlp.outputs[0], shape: [batch, 8] }] });
  const symbolic = { ...atBatch('batch'), version: 2 };
  let mlpPlan;
  before(async () => {
    const model = await engines.threads.loadModel(mlp, weightsOf('tiny_mlp'));
    mlpPlan = await model.savePlan();
    await model.dispose();
  });

  it('a plan made for another model, naming both', async () => {
    await assert.rejects(engines.threads.loadModel(relu.json, relu.weights, { plan: mlpPlan }),
                         engineError(/^the plan was made for model "tiny_mlp", not "relu"$/));
  });

  it('a plan for other input dims: refused at load when the dims are fixed, else used at its dims only', async () => {
    const engine = engines.threads;
    await assert.rejects(engine.loadModel(atBatch(5), weightsOf('tiny_mlp'), { plan: mlpPlan }),
                         engineError(/^the plan was made for inputs x=\[3,20\], not x=\[5,20\]$/));
    const model = await engine.loadModel(symbolic, weightsOf('tiny_mlp'), { plan: mlpPlan });
    await assert.rejects(model.plan(), engineError(/^plan: the model has symbolic dims and has not run yet/));
    await model.run({ x: { data: new Float32Array(3 * 20), dims: [3, 20] } });
    assert.equal((await model.plan()).planner, 'file');
    await model.run({ x: { data: new Float32Array(5 * 20), dims: [5, 20] } });
    assert.equal((await model.plan()).planner, 'default');
    await model.dispose();
  });

  it('a plan that does not fit the model\'s nodes, naming the node', async () => {
    const shifted = { ...mlpPlan, nodes: mlpPlan.nodes.slice(1) };
    await assert.rejects(engines.threads.loadModel(mlp, weightsOf('tiny_mlp'), { plan: shifted }),
                         engineError(/^plan entry 0 is node "fc2" \(Gemm\), the model has "fc1" \(Gemm\) there$/));
  });

  it('an unknown planner, with the engine\'s message', async () => {
    await assert.rejects(engines.single.loadModel(mlp, weightsOf('tiny_mlp'), { planner: 'fast' }),
                         engineError(/^unknown planner "fast" \(auto, default, search\)$/));
  });

  it('options of the wrong type are TypeErrors naming the option', async () => {
    const load = (options) => engines.threads.loadModel(mlp, weightsOf('tiny_mlp'), options);
    await assert.rejects(load({ planner: 1 }), { name: 'TypeError',
      message: /^loadModel: planner must be a string \("auto", "default" or "search"\), got 1$/ });
    await assert.rejects(load({ planScheduler: 'shuffle' }), { name: 'TypeError',
      message: /^loadModel: planScheduler must be one of dynamic, barrier, got "shuffle"$/ });
    for (const plan of [3, null, [mlpPlan]]) {
      await assert.rejects(load({ plan }), { name: 'TypeError', message: /^loadModel: plan must be a saved plan / });
    }
    // In the (json, options) form as well.
    await assert.rejects(engines.threads.loadModel(mlp, { weights: weightsOf('tiny_mlp'), planner: true }),
                         { name: 'TypeError', message: /planner must be a string/ });
  });

  it('the search prices tiles from the engine\'s profile, and plans for the scheduler asked', async () => {
    const name = 'tiny_cnn';
    const profile = await engines.threads.calibrate({ quick: true });
    const calibrated = await engines.threads.loadModel(zoo[name].model, weightsOf(name), { planner: 'search' });
    assert.equal((await calibrated.plan()).calibrated, true);
    // `auto`, the default, searches once the engine's profile is calibrated (before: 'default').
    const byAuto = await engines.threads.loadModel(zoo[name].model, weightsOf(name));
    assert.deepEqual(await byAuto.plan().then(({ planner, searched }) => ({ planner, searched })),
                     { planner: 'search', searched: true });
    await byAuto.dispose();
    const barrier = await engines.threads.loadModel(zoo[name].model, weightsOf(name),
                                                    { planner: 'search', planScheduler: 'barrier' });
    assert.equal((await barrier.plan()).searched, true);
    assertSameOutputs(await outputsOf(barrier, name), await outputsOf(calibrated, name), 'barrier plan');
    // The single build refuses the threads build's profile when the search needs it, and only then.
    await engines.single.setProfile(profile);
    await assert.rejects(engines.single.loadModel(zoo[name].model, weightsOf(name), { planner: 'search' }), engineError(
      /calibrated for wasm-simd128 \(wasm-threads\).*wasm-simd128 kernels \(wasm-single\)/));
    await (await engines.single.loadModel(zoo[name].model, weightsOf(name))).dispose();
    await engines.single.setProfile(null);
    await Promise.all([calibrated.dispose(), barrier.dispose()]);
  });
});

// The C API's own check of tessera_model_load's options (the JS layer checks them first).
it('tessera_model_load refuses options that are not a JSON object of known strings', async () => {
  const script = path.join(appDir(), 'node_modules/tessera/wasm/dist/tessera-single.js');
  const createTesseraModule = createRequire(import.meta.url)(script);
  const m = await createTesseraModule({ wasmBinary: fs.readFileSync(script.replace(/\.js$/, '.wasm')) });
  const engine = m._tessera_engine_create(1);
  const cString = (text) => {
    const size = m.lengthBytesUTF8(text) + 1;
    const ptr = m._malloc(size);
    m.stringToUTF8(text, ptr, size);
    return ptr;
  };
  const json = cString(JSON.stringify(relu.json));
  const load = (options) => {
    const [text, out] = [options === null ? 0 : cString(options), m._malloc(4)];
    const status = m._tessera_model_load(engine, json, 0, text, out);
    const model = new Uint32Array(m.HEAPU8.buffer, out, 1)[0];
    m._free(text);
    m._free(out);
    if (status === 0) m._tessera_model_destroy(model);
    return status === 0 ? 'loaded' : m.UTF8ToString(m._tessera_engine_last_error(engine));
  };
  assert.equal(load(null), 'loaded');
  assert.equal(load(''), 'loaded');
  assert.equal(load('{"planner": "search", "planScheduler": "barrier", "profile": ""}'), 'loaded');
  assert.equal(load('{"planner": '), 'load options: not a JSON object');
  assert.equal(load('["search"]'), 'load options: not a JSON object');
  assert.equal(load('{"planner": 1}'), 'load options: "planner" must be a string');
  assert.equal(load('{"plan": {}}'), 'load options: "plan" must be a string');
  assert.equal(load('{"planScheduler": "shuffle"}'),
               'load options: "planScheduler" must be "dynamic" or "barrier", got "shuffle"');
  assert.equal(load('{"planer": "search"}'),
               'load options: unknown option "planer" (planner, planScheduler, plan, profile)');
  m._free(json);
  m._tessera_engine_destroy(engine);
});
