// The cost model through the installed package: a quick engine.calibrate() in each build
// names that build, model.predict() gives a latency and one time per compiled node (guesses
// before a profile, calibrated after), the transfers between workers are measured and price a
// placement's cuts, and a profile of the other build or bad options are refused with what is
// wrong named.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';

import { zooInput, zooModel } from './models.mjs';
import { importFromApp } from './package.mjs';

const { createEngine, TesseraError } = await importFromApp('tessera');

const cnn = zooModel('tiny_cnn');
const weights = fs.readFileSync(cnn.weights);
const BUILDS = { threads: 'wasm-threads', single: 'wasm-single' };

const engines = {};
const models = {};
const profiles = {};
before(async () => {
  for (const wasm of Object.keys(BUILDS)) {
    engines[wasm] = await createEngine({ threads: 2, wasm });
    models[wasm] = await engines[wasm].loadModel(cnn.model, weights);
  }
});
after(() => Promise.all(Object.values(engines).map((engine) => engine.dispose())));

// A prediction of `model` on `threads` threads: positive times, one entry per compiled node.
function checkPrediction(prediction, model, threads) {
  assert.ok(prediction.latencyMs > 0 && prediction.criticalPathMs > 0, JSON.stringify(prediction));
  assert.ok(prediction.criticalPathMs <= prediction.latencyMs * (1 + 1e-9));
  assert.equal(prediction.threads, threads);
  assert.equal(prediction.idleMs.length, threads);
  const compiled = model.inspect().nodes;
  assert.deepEqual(prediction.nodes.map(({ name, op }) => ({ name, op })), compiled.map(({ name, op }) => ({ name, op })));
  assert.ok(prediction.nodes.every(({ ms }) => ms >= 0));
  assert.ok(prediction.nodes.some(({ ms }) => ms > 0));
}

for (const [wasm, build] of Object.entries(BUILDS)) {
  describe(`the ${wasm} build`, () => {
    it('predicts and places with uncalibrated guesses before any profile', async () => {
      const prediction = await models[wasm].predict();
      assert.equal(prediction.calibrated, false);
      assert.equal(prediction.profile, 'uncalibrated');
      assert.equal(prediction.scheduler, 'dynamic');
      checkPrediction(prediction, models[wasm], engines[wasm].threads);
      const placement = await engines[wasm].place(cnn.model, weights, { workers: 2 });
      assert.deepEqual({ calibrated: placement.calibrated, transferCalibrated: placement.transferCalibrated },
                       { calibrated: false, transferCalibrated: false });
    });

    it(`calibrates quickly, naming ${build} and SIMD128; calls made meanwhile wait for it`, async () => {
      const start = performance.now();
      const calibrating = engines[wasm].calibrate({ quick: true });
      const predicting = models[wasm].predict();
      profiles[wasm] = await calibrating;
      assert.ok(performance.now() - start < 20000, `took ${performance.now() - start} ms`);
      assert.equal((await predicting).calibrated, true);
      assert.equal(profiles[wasm].format, 'tessera-profile');
      assert.deepEqual({ build: profiles[wasm].machine.build, isa: profiles[wasm].machine.isa },
                       { build, isa: 'wasm-simd128' });
      assert.equal(profiles[wasm].machine.cores, engines[wasm].threads);
      assert.equal(profiles[wasm].quick, true);
      const { message_ns: message, copy_gbps: copy } = profiles[wasm].transfer;
      assert.ok(message > 0 && message < 1e8 && copy > 0.1 && copy < 1000, JSON.stringify(profiles[wasm].transfer));
    });

    it('prices the cuts of a placement with the transfers it measured', async () => {
      const placement = await engines[wasm].place(cnn.model, weights, { workers: 2 });
      assert.deepEqual({ calibrated: placement.calibrated, transferCalibrated: placement.transferCalibrated },
                       { calibrated: true, transferCalibrated: true });
      const msPerByte = 1e-6 / profiles[wasm].transfer.copy_gbps;
      for (const stage of placement.stages) {
        assert.ok(stage.transferMs >= (stage.bytesIn + stage.bytesOut) * msPerByte * (1 - 1e-9), JSON.stringify(stage));
      }
    });

    it('predicts from the profile it calibrated, at any thread count and both schedulers', async () => {
      const prediction = await models[wasm].predict();
      assert.equal(prediction.calibrated, true);
      assert.match(prediction.profile, new RegExp(`^wasm-simd128 ${build}, `));
      checkPrediction(prediction, models[wasm], engines[wasm].threads);
      const barrier = await models[wasm].predict({ threads: 3, scheduler: 'barrier' });
      assert.equal(barrier.scheduler, 'barrier');
      checkPrediction(barrier, models[wasm], 3);
    });

    it('still runs the model after calibrating', async () => {
      const { name, data } = zooInput(cnn, 3);
      const outputs = await models[wasm].run({ [name]: data });
      assert.ok(Object.values(outputs)[0].data.every(Number.isFinite));
    });
  });
}

describe('refusals', () => {
  it('a profile of the other build, naming both builds', async () => {
    for (const [wasm, other] of [['single', 'threads'], ['threads', 'single']]) {
      await assert.rejects(models[wasm].predict({ profile: profiles[other] }), (error) => {
        assert.ok(error instanceof TesseraError, `${error.name}: ${error.message}`);
        assert.match(error.message, new RegExp(`calibrated for wasm-simd128 \\(${BUILDS[other]}\\).*` +
                                               `runs wasm-simd128 kernels \\(${BUILDS[wasm]}\\)`));
        return true;
      });
    }
  });

  it('setProfile: the other build refused at predict(), null back to guesses, then its own', async () => {
    const model = models.single;
    await engines.single.setProfile(profiles.threads);
    await assert.rejects(model.predict(), /calibrated for wasm-simd128 \(wasm-threads\)/);
    await engines.single.setProfile(null);
    assert.equal((await model.predict()).calibrated, false);
    await engines.single.setProfile(profiles.single);
    assert.equal((await model.predict()).calibrated, true);
    await assert.rejects(engines.single.setProfile('{}'), /setProfile: profile must be an object/);
  });

  it('something that is not a Tessera profile', async () => {
    await assert.rejects(models.threads.predict({ profile: { format: 'onnx' } }), (error) => {
      assert.ok(error instanceof TesseraError, `${error.name}: ${error.message}`);
      assert.match(error.message, /not a Tessera profile/);
      return true;
    });
    await assert.rejects(models.threads.predict({ profile: 'fast' }), TypeError);
  });

  it('bad threads and schedulers', async () => {
    const model = models.threads;
    await assert.rejects(model.predict({ threads: 0 }),
      { name: 'TypeError', message: /threads must be an integer of at least 1, got 0/ });
    await assert.rejects(model.predict({ threads: 1.5 }), { name: 'TypeError', message: /got 1.5/ });
    await assert.rejects(model.predict({ threads: 100000 }), (error) => error instanceof TesseraError &&
                                                                        /threads must be from 1 to 4096/.test(error.message));
    await assert.rejects(model.predict({ scheduler: 'shuffle' }),
      { name: 'TypeError', message: /scheduler must be one of dynamic, barrier, got "shuffle"/ });
    assert.equal((await model.predict()).calibrated, true);  // none of it changed the engine
  });

  it('a model with symbolic dims before its first run, then at the dims it ran', async () => {
    const mlp = zooModel('tiny_mlp');  // x [3, 20] -> y [3, 8], here with a symbolic batch
    const symbolic = { ...mlp.model, version: 2, inputs: [{ ...mlp.model.inputs[0], shape: ['batch', 20] }],
                       outputs: [{ ...mlp.model.outputs[0], shape: ['batch', 8] }] };
    const model = await engines.threads.loadModel(symbolic, fs.readFileSync(mlp.weights));
    await assert.rejects(model.predict(), (error) => error instanceof TesseraError &&
                         /the model has symbolic dims and has not run yet: run it once/.test(error.message));
    await model.run({ x: { data: new Float32Array(5 * 20), dims: [5, 20] } });
    checkPrediction(await model.predict(), model, engines.threads.threads);
    await model.dispose();
  });
});
