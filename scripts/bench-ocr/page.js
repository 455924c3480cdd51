// The browser side of scripts/bench-ocr.mjs: one OCR engine per page, ?engine=tessera or
// ?engine=gutenye. window.bench.load() creates it; window.bench.read(name) reads the render
// /renders/<name>.png from RGBA decoded once beforehand (decoding is not timed, as in Node).
const ENGINE = new URL(location.href).searchParams.get('engine');
const images = new Map();

async function decode(name) {
  const blob = await (await fetch(`/renders/${name}.png`)).blob();
  const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height);
}

// Tessera: read() reports its own stage times (pre- and post-processing included).
async function loadTessera() {
  const { createEngine } = await import('tessera');
  const { createOcr } = await import('tessera/ocr');
  const engine = await createEngine({ threads: 2 });
  const file = (name) => new URL(`/models/${name}`, location.href);
  const ocr = await createOcr(engine, { det: file('ocr_det.json'), cls: file('ocr_cls.json'),
    rec: file('ocr_rec.json'), dictionary: file('ppocr_keys_v1.txt') });
  const info = { threads: engine.threads, features: engine.features };
  return [info, async (image) => {
    const t0 = performance.now();
    const r = await ocr.read(image);
    const wall = performance.now() - t0;
    return { wall, lines: r.lines.map((line) => line.text), times: r.times, recogniser: r.recogniser };
  }];
}

// @gutenye/ocr-browser: Ocr.detect(url) is Detection.run(url) then Recognition.run(lines);
// calling the two here times them apart. ImageRaw.open gets the decoded render instead of
// loading a URL; its constructor (a copy and a canvas) still runs, as in the package.
async function loadGutenye() {
  const { ort, Detection, Recognition, ImageRaw, cvReady } = await import('/vendor/gutenye.js');
  ort.env.wasm.numThreads = 2;
  ort.env.wasm.wasmPaths = '/ort/';
  await cvReady;
  const models = { detectionPath: '/gutenye-models/ch_PP-OCRv4_det_infer.onnx',
    recognitionPath: '/gutenye-models/ch_PP-OCRv4_rec_infer.onnx',
    dictionaryPath: '/gutenye-models/ppocr_keys_v1.txt' };
  const detection = await Detection.create({ models });
  const recognition = await Recognition.create({ models });
  ImageRaw.open = async (name) => new ImageRaw(images.get(name));
  // The onnxruntime runs alone, summed over the read: the rest is the package's own JavaScript.
  let inference = 0;
  const run = ort.InferenceSession.prototype.run;
  ort.InferenceSession.prototype.run = async function (...args) {
    const t0 = performance.now();
    try {
      return await run.apply(this, args);
    } finally {
      inference += performance.now() - t0;
    }
  };
  const info = { threads: ort.env.wasm.numThreads, crossOriginIsolated, ort: ort.env.versions?.web };
  return [info, async (name) => {
    inference = 0;
    const t0 = performance.now();
    const lineImages = await detection.run(name);
    const [t1, detectModel] = [performance.now(), inference];
    const lines = await recognition.run(lineImages);
    const t2 = performance.now();
    return { wall: t2 - t0, lines: lines.map((line) => line.text), times: { detect: t1 - t0,
      recognise: t2 - t1, total: t2 - t0, detectModel, recogniseModel: inference - detectModel } };
  }];
}

let read;
window.bench = {
  async load(names) {
    for (const name of names) images.set(name, await decode(name));
    const t0 = performance.now();
    const [info, reader] = await (ENGINE === 'tessera' ? loadTessera() : loadGutenye());
    read = ENGINE === 'tessera' ? (name) => reader(images.get(name)) : reader;
    return { ...info, loadMs: performance.now() - t0 };
  },
  read: (name) => read(name),
};
