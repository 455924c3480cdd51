// Every zoo model exported to ONNX by Tessera's exporter and run by onnxruntime-node on the
// same weights and input: equal to the native engine within 1e-4 of the largest magnitude.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';

import { exportOnnx } from '../../wasm/js/convert/index.js';
import { product, randomInput, relativeError, REPO, runOnnxruntime, runTessera, ZOO } from './engines.mjs';

const MODELS = ['tiny_cnn', 'tiny_mobilenet', 'tiny_transformer', 'tiny_mlp', 'mobilenetv2_b1', 'mobilenetv2_b8',
  'resnet50_b1', 'resnet50_b8', 'vgg16_b1', 'vgg16_b8', 'bert_base'];
// The test command's CTest run generates the full zoo here; the tiny models are added.
const dir = process.env.TESSERA_ZOO_DIR ?? path.join(REPO, 'build/test-zoo-full');

before(() => {
  if (!fs.existsSync(path.join(dir, 'tiny_cnn.json'))) execFileSync(ZOO, ['tiny', '-o', dir]);
  if (!fs.existsSync(path.join(dir, 'bert_base.json'))) execFileSync(ZOO, ['all', '-o', dir]);
});

for (const name of MODELS) {
  test(`${name} exported to ONNX matches onnxruntime-node`, async () => {
    const jsonPath = path.join(dir, `${name}.json`);
    const json = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
    const onnxBytes = exportOnnx(json, fs.readFileSync(path.join(dir, json.weights ?? `${name}.bin`)));
    const [spec] = json.inputs;
    const input = randomInput(product(spec.shape), 11);
    const ours = runTessera(jsonPath, spec.name, input);
    const reference = await runOnnxruntime(onnxBytes, spec.name, spec.shape, input);
    for (const [outName, expected] of Object.entries(reference)) {
      const error = relativeError(ours[outName].data, expected.data);
      assert.ok(error <= 1e-4, `${outName}: relative error ${error}`);
    }
  });
}
