// PP-OCR in three models, as PaddleOCR runs them: the detector reads the whole image at (about)
// its own size, each text line found becomes a rotated rectangle, whose straightened crop the
// direction classifier checks for being upside down and the recogniser reads at its own
// width. Crop widths round up to a few buckets, so the recogniser's specialisations (one per
// input width) are compiled once and reused.
import { ctcDecode } from './ctc.js';
import { detectRects, kDetectDefaults, readingOrder } from './db_postprocess.js';
import { quadSize, rectCorners } from './geometry.js';
import { checkImage, detectorInput, writeLine } from './image.js';

const kRows = 48;             // the classifier's and recogniser's input height
const kClassifierWidth = 192;
const kUpsideDown = 0.9;      // classifier probability that turns a crop
const kTall = 1.5;            // a box this much taller than wide is a column: read it turned
const kMaxPitch = 16;         // columns a character in a crop: wider lines whose reading has a
const kLongRun = 10;          // run of this many characters without a space are read again,
const kPitch = 14;            // scaled to this (all three set on the test renders)
/**
 * Recogniser input widths: short steps, then steps of 320, so padding wastes at most a third
 * of a run; 13 widths stay within the engine's 16 cached specialisations. Wider lines round
 * up to multiples of 640. (PaddleOCR pads to at least 320; reading labels at 160 and 240
 * columns cut the form's recognition time by a third at the same accuracy.)
 */
export const kWidthBuckets = [160, 240, 320, 480, 640, 800, 960, 1120, 1280, 1600, 1920, 2240, 2560];

/** The bucket a crop of `columns` columns is padded to. */
export function bucketOf(columns) {
  return kWidthBuckets.find((bucket) => bucket >= columns) ?? Math.ceil(columns / 640) * 640;
}

const shapeKey = (dims) => dims.join('x');

export class Ocr {
  #models;
  #dictionary;
  #options;
  #seen = new Set();  // recogniser input dims run so far: each was one specialisation

  /**
   * @param models { det, cls, rec }: loaded models (det with symbolic height and width, rec
   *   with symbolic width)
   * @param dictionary the recogniser's characters, one per class after the blank
   * @param options { maxSide (960), dropScore (0.5), batch (crops of one width per run: 1,
   *   since 2, 4 and 8 measured no faster on the test renders and each batch size is a
   *   specialisation of its own), and the detector's threshold, boxThreshold, unclipRatio }
   */
  constructor(models, dictionary, options = {}) {
    this.#models = models;
    this.#dictionary = dictionary;
    this.#options = checkOptions({ maxSide: 960, dropScore: 0.5, batch: 1, ...kDetectDefaults, ...defined(options) });
  }

  /**
   * Reads an image: ImageData or { data, width, height } RGBA. Returns { lines: [{ text,
   * confidence, box: four [x, y] corners (top-left, top-right, bottom-right, bottom-left) }]
   * in reading order, times: { detect, classify, recognise, total } in ms, recogniser: {
   * compiled, reused } specialisations }.
   */
  async read(image) {
    checkImage(image);
    const start = performance.now();
    const found = await this.#detect(image);
    const detected = performance.now();
    const crops = [];
    for (const { quad } of found) crops.push(await this.#straighten(image, quad));
    const classified = performance.now();
    const { reads, compiled, reused } = await this.#recognise(image, crops);
    const end = performance.now();
    const lines = found.map(({ box }, i) => ({ ...reads[i], box }))
      .filter((line) => line.text && line.confidence >= this.#options.dropScore);
    return {
      lines,
      times: { detect: detected - start, classify: classified - detected, recognise: end - classified, total: end - start },
      recogniser: { compiled, reused },
    };
  }

  // Text lines in image pixels, in reading order: { box } as reported (corners clipped to
  // the image) and { quad }, the whole rectangle to crop (samples outside repeat the edge).
  async #detect(image) {
    const { tensor, width, height } = detectorInput(image, this.#options.maxSide);
    const { data } = await runOne(this.#models.det, tensor, [1, 3, height, width]);
    const sx = image.width / width;
    const sy = image.height / height;
    const clip = (value, limit) => Math.min(Math.max(value, 0), limit - 1);
    const lines = detectRects(data, width, height, this.#options).map(({ rect }) => {
      const quad = rectCorners(rect).map(([x, y]) => [x * sx, y * sy]);
      return { quad, box: quad.map(([x, y]) => [clip(x, image.width), clip(y, image.height)]) };
    });
    return readingOrder(lines.filter(({ box }) => {
      const { width: w, height: h } = quadSize(box);
      return w > 3 && h > 3;
    }));
  }

  // The quadrilateral to read for `box`, corners relabelled so that reading runs from its
  // top-left to its top-right: turned a quarter for a column, a half when upside down.
  async #straighten(image, box) {
    const { width, height } = quadSize(box);
    const [tl, tr, br, bl] = box;
    const quad = height >= kTall * width ? [tr, br, bl, tl] : box;
    const columns = Math.min(kClassifierWidth, lineColumns(quad));
    const tensor = new Float32Array(3 * kRows * kClassifierWidth);
    writeLine(tensor, 0, image, quad, kRows, columns, kClassifierWidth);
    const { data } = await runOne(this.#models.cls, tensor, [1, 3, kRows, kClassifierWidth]);
    return data[1] > kUpsideDown ? [quad[2], quad[3], quad[0], quad[1]] : quad;
  }

  // Reads the crops; { reads: [{ text, confidence }] in the crops' order, compiled, reused }.
  // When characters come out wider than the recogniser reads best (monospaced text, wide
  // fonts), it drops spaces: such lines with a long run of characters without a space are
  // read again scaled down to kPitch columns a character, inside a 48-row crop whose margins
  // repeat its edge rows; the more confident reading wins.
  async #recognise(image, crops) {
    const counts = { compiled: 0, reused: 0 };
    const first = crops.map((quad) => ({ quad, scale: 1 }));
    const reads = await this.#readLines(image, first, counts);
    const wide = [];
    reads.forEach(({ text }, i) => {
      const pitch = lineColumns(crops[i]) / Math.max(1, [...text].length);
      const longestRun = Math.max(0, ...text.split(' ').map((word) => [...word].length));
      if (pitch > kMaxPitch && longestRun >= kLongRun) wide.push({ quad: crops[i], scale: kPitch / pitch, index: i });
    });
    const again = await this.#readLines(image, wide, counts);
    wide.forEach(({ index }, i) => {
      if (again[i].confidence >= reads[index].confidence) reads[index] = again[i];
    });
    return { reads, ...counts };
  }

  // Reads lines { quad, scale } in batches of one bucket width; their reads in order.
  async #readLines(image, lines, counts) {
    const byBucket = new Map();
    lines.forEach(({ quad, scale }, index) => {
      const columns = lineColumns(quad, scale);
      const bucket = bucketOf(columns);
      if (!byBucket.has(bucket)) byBucket.set(bucket, []);
      byBucket.get(bucket).push({ quad, index, columns, inset: Math.round((kRows * (1 - scale)) / 2) });
    });
    const reads = new Array(lines.length);
    for (const [bucket, items] of byBucket) {
      for (let at = 0; at < items.length; at += this.#options.batch) {
        const batch = items.slice(at, at + this.#options.batch);
        const dims = [batch.length, 3, kRows, bucket];
        const tensor = new Float32Array(dims.reduce((a, b) => a * b));
        batch.forEach(({ quad, columns, inset }, i) => writeLine(tensor, i, image, quad, kRows, columns, bucket, inset));
        ++counts[this.#seen.has(shapeKey(dims)) ? 'reused' : 'compiled'];
        this.#seen.add(shapeKey(dims));
        const { data, dims: [, steps, classes] } = await runOne(this.#models.rec, tensor, dims);
        if (classes !== this.#dictionary.length + 2) {
          throw new Error(`ocr: the recogniser has ${classes} classes, the dictionary ${this.#dictionary.length} ` +
                          'entries (plus blank and space)');
        }
        batch.forEach(({ index }, i) => {
          reads[index] = ctcDecode(data.subarray(i * steps * classes, (i + 1) * steps * classes), steps, classes,
                                   this.#dictionary);
        });
      }
    }
    return reads;
  }
}

// The options without the keys given as undefined (which would hide the defaults).
const defined = (options) => Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));

function checkOptions(options) {
  const { maxSide, batch, dropScore, threshold, boxThreshold, unclipRatio } = options;
  const fail = (what) => {
    throw new TypeError(`ocr: ${what}`);
  };
  if (!Number.isInteger(maxSide) || maxSide < 32) fail(`maxSide must be an integer of at least 32, got ${maxSide}`);
  if (!Number.isInteger(batch) || batch < 1) fail(`batch must be a positive integer, got ${batch}`);
  for (const [name, value] of Object.entries({ dropScore, threshold, boxThreshold })) {
    if (!(value >= 0 && value <= 1)) fail(`${name} must be a number from 0 to 1, got ${value}`);
  }
  if (!(unclipRatio >= 0)) fail(`unclipRatio must be a non-negative number, got ${unclipRatio}`);
  return options;
}

// Columns of a crop scaled to kRows rows, keeping its aspect ratio, times `scale`.
function lineColumns(quad, scale = 1) {
  const { width, height } = quadSize(quad);
  return Math.max(1, Math.ceil((scale * kRows * width) / Math.max(height, 1)));
}

// Runs a one-input, one-output model.
async function runOne(model, data, dims) {
  return Object.values(await model.run({ [model.inputs[0].name]: { data, dims } }))[0];
}
