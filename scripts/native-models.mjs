// What the native measurement scripts share: the repository root, the CLI, their option
// parsing, and the models they measure (each a model file relative to the root and the CLI's
// shape options for it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cli = path.join(root, 'build/tessera');

// The value after --name on the command line, or `fallback`.
export function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

// The zoo and PP-OCR at the benchmarks' shapes, then models whose shapes and widths nothing
// was tuned on (batch 8, other image sizes, the tiny zoo's narrow layers).
export const MODELS = {
  mobilenetv2_b1: ['build/test-zoo-full/mobilenetv2_b1.json', []],
  resnet50_b1: ['build/test-zoo-full/resnet50_b1.json', []],
  vgg16_b1: ['build/test-zoo-full/vgg16_b1.json', []],
  bert_base: ['build/test-zoo-full/bert_base.json', []],
  inception_v3: ['build/test-zoo-full/inception_v3.json', []],
  ppocr_det: ['build/ocr-models/ocr_det.json', ['--shape', 'x=1x3x640x640']],
  ppocr_rec: ['build/ocr-models/ocr_rec.json', ['--shape', 'x=1x3x48x320']],
  ppocr_cls: ['build/ocr-models/ocr_cls.json', []],
  mobilenetv2_b8: ['build/test-zoo-full/mobilenetv2_b8.json', []],
  resnet50_b8: ['build/test-zoo-full/resnet50_b8.json', []],
  ppocr_det_960: ['build/ocr-models/ocr_det.json', ['--shape', 'x=1x3x960x960']],
  ppocr_rec_960: ['build/ocr-models/ocr_rec.json', ['--shape', 'x=1x3x48x960']],
  tiny_cnn: ['build/test-zoo-full/tiny_cnn.json', []],
  tiny_mobilenet: ['build/test-zoo-full/tiny_mobilenet.json', []],
  tiny_transformer: ['build/test-zoo-full/tiny_transformer.json', []],
};
