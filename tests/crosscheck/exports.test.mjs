// ONNX models shaped like real exports (symbolic batch, sequence and image dims, int64 token
// ids and masks, shape arithmetic at run time) converted ONCE with their dims left symbolic,
// then run by the native engine at several shapes each and compared with onnxruntime-node:
// float outputs within 1e-4 of the largest magnitude, integer outputs equal.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

import { convertOnnx } from '../../wasm/js/convert/index.js';
import { bertLike, causalDecoder, randomInputs, yoloLike } from '../exports/index.mjs';
import { relativeError, runOnnxruntimeFeeds, runTesseraFeeds } from './engines.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-exports-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

const CASES = [
  { name: 'bertLike', build: () => bertLike({ seed: 3 }), shapes: [{ batch: 1, sequence: 8 }, { batch: 2, sequence: 13 }, { batch: 1, sequence: 64 }] },
  { name: 'yoloLike', build: () => yoloLike({ seed: 4 }), shapes: [{ height: 320, width: 320 }, { height: 256, width: 384 }, { height: 416, width: 224 }] },
  { name: 'causalDecoder', build: () => causalDecoder({ seed: 5 }), shapes: [{ batch: 1, sequence: 5 }, { batch: 2, sequence: 17 }] },
];

function compare(ours, reference) {
  for (const [name, expected] of Object.entries(reference)) {
    assert.ok(ours[name], `Tessera produced no output "${name}"`);
    assert.deepEqual(ours[name].dims, expected.dims, `${name}: dims`);
    if (expected.dtype === 'float32') {
      const error = relativeError(ours[name].data, expected.data);
      assert.ok(error <= 1e-4, `${name}: relative error ${error}`);
    } else {
      assert.deepEqual([...ours[name].data], [...expected.data], `${name}: ${expected.dtype} values`);
    }
  }
}

for (const { name, build, shapes } of CASES) {
  describe(`${name}, converted once with symbolic dims`, () => {
    const { bytes } = build();
    const { json, weights } = convertOnnx(bytes);
    const jsonPath = path.join(work, `${name}.json`);
    fs.writeFileSync(jsonPath, JSON.stringify({ ...json, weights: `${name}.bin` }));
    fs.writeFileSync(path.join(work, `${name}.bin`), weights);

    it('keeps the symbolic dims of its inputs', () => {
      assert.ok(json.inputs.some((input) => input.shape.some((d) => typeof d === 'string')));
    });
    for (const [index, dims] of shapes.entries()) {
      it(`matches onnxruntime-node at ${JSON.stringify(dims)}`, async () => {
        const feeds = randomInputs(name, dims, 10 + index);
        compare(runTesseraFeeds(jsonPath, feeds), await runOnnxruntimeFeeds(bytes, feeds));
      });
    }
  });
}
