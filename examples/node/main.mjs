// Runs MobileNetV2 (Tessera's format) and the same network converted from ONNX in Node, on
// an input made here, and prints both top classes as JSON.
//   node main.mjs MODELS_DIR
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

import { createEngine } from 'tessera';
import { convertOnnx } from 'tessera/convert';

const models = pathToFileURL(`${process.argv[2] ?? 'models'}/`);
const engine = await createEngine();
const model = await engine.loadModel(new URL('mobilenetv2_b1.json', models));
const [{ name, dims }] = model.inputs;
const image = Float32Array.from({ length: dims.reduce((a, b) => a * b) }, (_, i) => Math.sin(i / 100));
const { logits } = await model.run({ [name]: image });

const converted = convertOnnx(await readFile(new URL('mobilenetv2_b1.onnx', models)));
const fromOnnx = await engine.loadModel(converted.json, converted.weights);
const { logits: onnxLogits } = await fromOnnx.run({ [name]: image });

const top = (values) => values.indexOf(Math.max(...values));
console.log(JSON.stringify({ build: engine.features.build, threads: engine.threads, top: top(logits.data),
                             logits: Array.from(logits.data), onnxLogits: Array.from(onnxLogits.data) }));
await engine.dispose();
