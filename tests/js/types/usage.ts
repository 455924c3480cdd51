// Type-checked, never run (tests/js/types.test.mjs): the README's usage against the
// package's declarations, resolved by package name through the "exports" map, and misuses
// the declarations must reject.
import { clearModelCache, createEngine, TesseraError, type LoadProgress, type ModelInfo, type OutputTensor,
         type PlanReport, type SavedPlan } from 'tessera';
import { convertOnnx, ConvertError } from 'tessera/convert';
import { createOcr, type OcrResult } from 'tessera/ocr';

const engine = await createEngine({ threads: 2, wasm: 'auto' });
const build: 'threads' | 'single' = engine.features.build;
const { json, weights } = convertOnnx(new Uint8Array(0), { inputShapes: { x: [1, 3, 224, 224] } });
const model = await engine.loadModel(json, weights);
const fromUrl = await engine.loadModel(new URL('file:///model.json'));
const progress: LoadProgress[] = [];
const cached = await engine.loadModel(new URL('https://example.com/m.json'), { cache: true, onProgress: (p) => progress.push(p) });
const bundled = await createEngine({ assetsUrl: '/tessera/' });
const cleared: boolean = await clearModelCache();
const inputs = { x: new Float32Array(4), y: { data: new Float32Array(4), dims: [2, 2] } };
const outputs: Record<string, OutputTensor> = await model.run(inputs, { trace: true, scheduler: 'barrier' });
const out = outputs.logits;
const logits: Float32Array = out.dtype === 'float32' ? out.data : new Float32Array(0);
const ids = { input_ids: { data: new BigInt64Array(8), dims: [1, 8] }, attention_mask: { data: new BigInt64Array(8), dims: [1, 8] } };
const next = (await model.run(ids)).next_token;
const token: bigint | undefined = next.dtype === 'int64' ? next.data[0] : undefined;
const symbolic: Array<number | string> = model.inputs[0].dims;
const info: ModelInfo = model.inspect();
const flops: number = info.flops + info.nodes[0].flops + info.arena_bytes;
const slices = model.trace().traceEvents.length;
const { wasmBytes, heapInUseBytes } = await engine.memoryUsage();
const searched = await engine.loadModel(json, weights, { planner: 'search', planScheduler: 'barrier' });
const report: PlanReport = await searched.plan();
const gain: number = report.defaultPredictedMs - report.predictedMs + report.nodes[0].defaultGrid[0];
const saved: SavedPlan = await searched.savePlan();
const replanned = await engine.loadModel(json, { weights, plan: JSON.stringify(saved) });
const tiledBy: 'default' | 'search' | 'file' = replanned.inspect().planner;
const ocr = await createOcr(engine, { det: model, cls: model, rec: new URL('file:///rec.json'), dictionary: ['a', 'b'] });
const read: OcrResult = await ocr.read({ data: new Uint8ClampedArray(16), width: 2, height: 2 });
const corner: number = read.lines[0].box[2][1] + read.times.recognise + read.recogniser.reused;
await searched.dispose();
await replanned.dispose();
await fromUrl.dispose();
await cached.dispose();
await bundled.dispose();
await engine.dispose();
console.log(gain, tiledBy, corner, cleared, progress[0]?.file, build, logits, token, symbolic, flops, slices, wasmBytes, heapInUseBytes, new TesseraError('x'), new ConvertError('y'));

// @ts-expect-error threads is a number
await createEngine({ threads: '2' });
// @ts-expect-error no such build
await createEngine({ wasm: 'fast' });
// @ts-expect-error inputs are typed arrays
await model.run({ x: [1, 2, 3] });
// @ts-expect-error an int64 output holds bigints
const wrong: Float32Array = next.dtype === 'int64' ? next.data : new Float32Array(0);
// @ts-expect-error no such scheduler
await model.run({}, { scheduler: 'fifo' });
// @ts-expect-error weights are bytes or a URL
await engine.loadModel(json, 'model.bin');
// @ts-expect-error onProgress takes a function
await engine.loadModel(json, { onProgress: true });
// @ts-expect-error no such planner
await engine.loadModel(json, weights, { planner: 'greedy' });
// @ts-expect-error a plan is a saved plan object or its JSON text
await engine.loadModel(json, weights, { plan: 3 });
// @ts-expect-error the search plans for the dynamic or the barrier scheduler
await engine.loadModel(json, { planScheduler: 'shuffle' });
// @ts-expect-error the image is RGBA pixels, not a URL
await ocr.read(new URL('file:///page.png'));
