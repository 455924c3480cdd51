// PP-OCRv4 in three models: the detector finds text regions on the whole image, each region
// is cropped, the direction classifier says whether it is upside down, and the recogniser
// reads it. The models were converted with fixed input sizes, so images are letterboxed
// into the detector's input and crops scaled to 48 rows and padded to the classifier's and
// recogniser's widths (192 and 320 columns: longer lines are squeezed).
import { ctcDecode } from './ctc.js';
import { boxesFromProbabilities, readingOrder } from './db_postprocess.js';
import { canvasOf, cropToHeight, toTensor } from './image.js';

const IMAGENET = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };
const HALF = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] };
const kUpsideDown = 0.9;  // classifier probability that turns a crop
const kDropScore = 0.5;   // lines read with less confidence are dropped, as PaddleOCR does

/** The response of `url`, or an error naming it. */
export async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  return response;
}

// Runs a one-input, one-output model.
async function runOne(model, tensor) {
  return Object.values(await model.run({ [model.inputs[0].name]: tensor }))[0];
}

export class OcrPipeline {
  /** Loads the three models (and the recogniser's dictionary) from `base`. */
  static async load(engine, base, onProgress) {
    const models = {};
    for (const [key, name, label] of [['det', 'ppocr_det', 'text detector'], ['cls', 'ppocr_cls', 'direction classifier'],
      ['rec', 'ppocr_rec', 'text recogniser']]) {
      onProgress(`loading the PP-OCRv4 ${label}…`);
      models[key] = await engine.loadModel(new URL(`${name}.json`, base));
    }
    const keys = await (await fetchOk(new URL('ppocr_keys_v1.txt', base))).text();
    return new OcrPipeline(models, keys.replace(/\n$/, '').split('\n'));
  }

  constructor(models, dictionary) {
    this.models = models;
    this.dictionary = dictionary;
  }

  /**
   * Reads `source` (anything drawImage takes, with width and height). Returns { boxes, lines:
   * [{ text, confidence, box, upsideDown }], times: { detect, classify, recognise } in ms }.
   */
  async read(source) {
    // On opaque white: transparent pixels would otherwise read as black.
    const image = canvasOf(source.width, source.height, '#fff');
    image.getContext('2d').drawImage(source, 0, 0);
    const times = {};
    let start = performance.now();
    const boxes = await this.#detect(image);
    times.detect = performance.now() - start;

    start = performance.now();
    const turned = [];
    for (const box of boxes) turned.push(await this.#upsideDown(image, box));
    times.classify = performance.now() - start;

    start = performance.now();
    const lines = [];
    for (const [i, box] of boxes.entries()) {
      lines.push({ ...(await this.#recognise(image, box, turned[i])), box, upsideDown: turned[i] });
    }
    times.recognise = performance.now() - start;
    return { boxes, lines: lines.filter((line) => line.text && line.confidence >= kDropScore), times };
  }

  async #detect(image) {
    const [, , rows, columns] = this.models.det.inputs[0].dims;
    const scale = Math.min(columns / image.width, rows / image.height);
    const width = Math.round(image.width * scale);
    const height = Math.round(image.height * scale);
    const canvas = canvasOf(columns, rows, '#fff');
    canvas.getContext('2d').drawImage(image, 0, 0, width, height);
    const { data } = await runOne(this.models.det, toTensor(canvas, IMAGENET));
    return readingOrder(boxesFromProbabilities(data, columns, rows, width, height)).map((b) => ({
      x0: b.x0 / scale, y0: b.y0 / scale, x1: b.x1 / scale, y1: b.y1 / scale, score: b.score,
    }));
  }

  async #upsideDown(image, box) {
    const [, , height, maxWidth] = this.models.cls.inputs[0].dims;
    const { canvas, width } = cropToHeight(image, box, height, maxWidth);
    const { data } = await runOne(this.models.cls, toTensor(canvas, { ...HALF, validWidth: width }));
    return data[1] > kUpsideDown;
  }

  async #recognise(image, box, upsideDown) {
    const [, , height, maxWidth] = this.models.rec.inputs[0].dims;
    const { canvas, width } = cropToHeight(image, box, height, maxWidth, upsideDown);
    const { data, dims } = await runOne(this.models.rec, toTensor(canvas, { ...HALF, validWidth: width }));
    if (dims[2] !== this.dictionary.length + 2) {
      throw new Error(`the recogniser has ${dims[2]} classes, the dictionary ${this.dictionary.length} ` +
                      'entries (plus blank and space)');
    }
    return ctcDecode(data, dims[1], dims[2], this.dictionary);
  }
}
