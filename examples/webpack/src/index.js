// Runs MobileNetV2 (Tessera's format, cached after the first visit) and the same network
// converted from ONNX in the browser, on an input made here, and shows both top classes.
import { createEngine } from 'tessera';
import { convertOnnx } from 'tessera/convert';

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

  const top = (values) => values.indexOf(Math.max(...values));
  const result = { build: engine.features.build, threads: engine.threads, top: top(logits.data),
                   logits: Array.from(logits.data), onnxLogits: Array.from(onnxLogits.data), progress };
  await engine.dispose();
  show(`top class ${result.top} (from ONNX: ${top(onnxLogits.data)}), ${result.build} build on ${result.threads} threads`);
  return result;
}

// What the example tests read.
window.tesseraExample = main().catch((error) => {
  show(`failed: ${error.message}`);
  return { error: String(error?.stack ?? error) };
});
