// The package over time and side by side: many runs without the heap growing, models and
// engines used concurrently, and user scripts in the app directory that exit by themselves.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

import { runTessera } from '../crosscheck/engines.mjs';
import { zooInput, zooModel } from './models.mjs';
import { appDir, importFromApp } from './package.mjs';

const { createEngine } = await importFromApp('tessera');

const inputOf = (zoo, seed) => {
  const { name, data } = zooInput(zoo, seed);
  return { [name]: data };
};

it('1,000 consecutive runs of MobileNetV2 leave the Wasm heap and memory as they were', async () => {
  const engine = await createEngine({ threads: 2 });
  const zoo = zooModel('mobilenetv2_b1');
  const model = await engine.loadModel(zoo.url);
  const inputs = inputOf(zoo, 11);
  const first = await model.run(inputs);
  // Warm-up: the executor's per-thread queues and trace buffers reach their working size.
  for (let run = 0; run < 20; ++run) await model.run(inputs, { trace: run % 2 === 0 });
  const before = await engine.memoryUsage();
  for (let run = 1; run <= 1000; ++run) {
    // Every tenth run traced and every hundredth with a fresh input object, as apps do.
    const outputs = await model.run(run % 100 ? inputs : inputOf(zoo, 11), { trace: run % 10 === 0 });
    if (run % 250 === 0) assert.deepEqual(outputs, first, `run ${run}`);
  }
  const after = await engine.memoryUsage();
  assert.equal(after.wasmBytes, before.wasmBytes);
  assert.equal(after.heapInUseBytes, before.heapInUseBytes);
  await engine.dispose();
});

it('a model of fixed dims holds its weights once: the loaded ones are freed once packed', async () => {
  const engine = await createEngine({ threads: 2 });
  const zoo = zooModel('mobilenetv2_b1');
  const weightBytes = fs.statSync(zoo.weights).size;
  const before = await engine.memoryUsage();
  const model = await engine.loadModel(zoo.url);
  const loaded = await engine.memoryUsage();
  // The packed weights, the arena and the compiled graph; with the loaded weights beside
  // them it was 2.6 times the weights.
  const held = loaded.heapInUseBytes - before.heapInUseBytes;
  assert.ok(held < 2 * weightBytes, `heap in use grew by ${held} bytes for ${weightBytes} bytes of weights`);
  assert.ok(held > weightBytes, `heap in use grew by ${held} bytes: less than the packed weights`);
  const inputs = inputOf(zoo, 12);
  const outputs = await model.run(inputs);
  assert.deepEqual(await model.run(inputs), outputs);
  await engine.dispose();
});

it('two models load and run concurrently: queued in call order on one engine, in parallel on two', async () => {
  const zoos = [zooModel('mobilenetv2_b1'), zooModel('tiny_transformer')];
  const inputs = zoos.map((zoo, i) => inputOf(zoo, 20 + i));
  const engines = await Promise.all([createEngine({ threads: 2 }), createEngine({ threads: 2 })]);
  const [shared, second] = engines;
  const models = await Promise.all(zoos.map((zoo) => shared.loadModel(zoo.url)));
  const expected = [];
  for (const [i, model] of models.entries()) expected.push(await model.run(inputs[i]));

  const rounds = await Promise.all([0, 1, 2, 3].map(() => Promise.all(models.map((m, i) => m.run(inputs[i])))));
  for (const outputs of rounds) assert.deepEqual(outputs, expected);

  const elsewhere = await second.loadModel(zoos[0].url);
  const [here, there] = await Promise.all([models[0].run(inputs[0]), elsewhere.run(inputs[0])]);
  assert.deepEqual(here, expected[0]);
  assert.deepEqual(there, expected[0]);
  await Promise.all(engines.map((engine) => engine.dispose()));
});

// A script in the app directory, as a user writes it: run with plain `node`, no flags.
function runUserScript(name, source, args) {
  const file = path.join(appDir(), name);
  fs.writeFileSync(file, source);
  const result = spawnSync(process.execPath, [file, ...args], { cwd: appDir(), encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.signal, null, `${name} did not exit by itself within 60 s`);
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

const userScript = (dispose) => `
import { createEngine } from 'tessera';
const engine = await createEngine();
const model = await engine.loadModel(new URL(process.argv[2]));
const [input] = model.inputs;
const values = new Float32Array(input.dims.reduce((a, b) => a * b, 1)).fill(0.5);
const outputs = await model.run({ [input.name]: values });
const [name, { data }] = Object.entries(outputs)[0];
const top = data.indexOf(Math.max(...data));
console.log(\`\${model.name}: top \${name}[\${top}] = \${data[top]}\`);
${dispose ? 'await engine.dispose();' : '// no dispose: an idle engine does not keep Node running'}
`;

it('a user script loads a zoo model by package name, prints the top output and exits', () => {
  const zoo = zooModel('mobilenetv2_b1');
  const native = runTessera(zoo.json, 'image', new Float32Array(3 * 224 * 224).fill(0.5)).logits.data;
  const top = native.indexOf(Math.max(...native));
  for (const dispose of [true, false]) {
    const stdout = runUserScript(`top-${dispose}.mjs`, userScript(dispose), [zoo.url.href]);
    assert.match(stdout, new RegExp(`^mobilenetv2_b1: top logits\\[${top}\\] = `), stdout);
  }
});

it('npx tessera export and convert work from the installed package, and converted models run', async () => {
  const zoo = zooModel('tiny_cnn');
  const work = fs.mkdtempSync(path.join(appDir(), 'convert-'));
  const npx = (...args) => {
    const result = spawnSync('npx', ['--no-install', 'tessera', ...args], { cwd: appDir(), encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  };
  npx('export', zoo.json, '-o', path.join(work, 'tiny_cnn.onnx'));
  npx('convert', path.join(work, 'tiny_cnn.onnx'), '-o', work, '--name', 'roundtrip');

  const { convertOnnx } = await importFromApp('tessera/convert');
  const converted = convertOnnx(fs.readFileSync(path.join(work, 'tiny_cnn.onnx')));
  const engine = await createEngine({ threads: 2 });
  const inputs = inputOf(zoo, 30);
  const original = await (await engine.loadModel(zoo.url)).run(inputs);
  const fromCli = await (await engine.loadModel(new URL(`file://${path.join(work, 'roundtrip.json')}`))).run(inputs);
  const fromJs = await (await engine.loadModel(converted.json, converted.weights)).run(inputs);
  assert.deepEqual(fromCli, original);
  assert.deepEqual(fromJs, original);
  await engine.dispose();
});
