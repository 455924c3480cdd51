// Runs MobileNetV2 (Tessera's format, cached after the first visit) and the same network
// converted from ONNX in the browser, on an input made here, and shows both top classes;
// then reads a line of text drawn here with tessera/ocr.
import { createEngine } from 'tessera';
import { convertOnnx } from 'tessera/convert';
import { createOcr } from 'tessera/ocr';

const models = new URL('models/', location.href);
const show = (text) => (document.querySelector('#result').textContent = text);

async function main() {
  const engine = await createEngine();
  const progress = [];
  const model = await engine.loadModel(new URL('mobilenetv2_b1.json', models), {
    cache: true,
    onProgress: (event) => {
      progress.push(event);
      show(`loading ${event.file}: ${event.loaded} of ${event.total} bytes`);
    },
  });
  const [{ name, dims }] = model.inputs;
  const image = Float32Array.from({ length: dims.reduce((a, b) => a * b) }, (_, i) => Math.sin(i / 100));
  const { logits } = await model.run({ [name]: image });

  const onnx = new Uint8Array(await (await fetch(new URL('mobilenetv2_b1.onnx', models))).arrayBuffer());
  const converted = convertOnnx(onnx);
  const fromOnnx = await engine.loadModel(converted.json, converted.weights);
  const { logits: onnxLogits } = await fromOnnx.run({ [name]: image });

  const ocr = await createOcr(engine, {
    det: new URL('ocr_det.json', models), cls: new URL('ocr_cls.json', models), rec: new URL('ocr_rec.json', models),
    dictionary: new URL('ppocr_keys_v1.txt', models),
  });
  const canvas = new OffscreenCanvas(520, 96);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#222';
  context.font = '36px sans-serif';
  context.fillText('Tessera reads this line', 24, 60);
  const { lines } = await ocr.read(context.getImageData(0, 0, canvas.width, canvas.height));

  const top = (values) => values.indexOf(Math.max(...values));
  const result = { build: engine.features.build, threads: engine.threads, top: top(logits.data),
                   logits: Array.from(logits.data), onnxLogits: Array.from(onnxLogits.data), progress,
                   text: lines.map((line) => line.text) };
  await engine.dispose();
  show(`top class ${result.top} (from ONNX: ${top(onnxLogits.data)}), ${result.build} build on ${result.threads} ` +
       `threads; read "${result.text.join(' / ')}"`);
  return result;
}

// What the example tests read.
window.tesseraExample = main().catch((error) => {
  show(`failed: ${error.message}`);
  return { error: String(error?.stack ?? error) };
});
