import { createEngine } from 'tessera';
import fs from 'node:fs';
const [model, threads] = [process.argv[2], Number(process.argv[3])];
const engine = await createEngine({ threads, wasm: 'threads' });
const loaded = await engine.loadModel(new URL(`file://${model}`));
const info = loaded.inspect ? loaded.inspect() : null;
const spec = JSON.parse(fs.readFileSync(model, 'utf8')).inputs[0];
const n = spec.shape.reduce((a, b) => a * b, 1);
const data = new Float32Array(n).map((_, i) => Math.sin(i));
const inputs = { [spec.name]: { data, dims: spec.shape } };
for (let i = 0; i < 200; ++i) await loaded.run(inputs);
const spans = [], sums = [], busy = [];
for (let r = 0; r < 15; ++r) {
  await loaded.run(inputs, { trace: true });
  const t = loaded.trace();
  const ev = (t.traceEvents ?? t).filter((e) => e.ph === 'X');
  const start = Math.min(...ev.map((e) => e.ts)), end = Math.max(...ev.map((e) => e.ts + e.dur));
  spans.push((end - start) / 1000);
  sums.push(ev.reduce((a, e) => a + e.dur, 0) / 1000);
  const per = {}; for (const e of ev) per[e.tid] = (per[e.tid] ?? 0) + e.dur / 1000;
  busy.push(Object.values(per).map((v) => v.toFixed(2)).join('/'));
}
const times = [];
for (let r = 0; r < 100; ++r) { const t0 = performance.now(); await loaded.run(inputs); times.push(performance.now() - t0); }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`${threads}t run ${med(times).toFixed(2)} ms; traced span ${med(spans).toFixed(2)}, tile sum ${med(sums).toFixed(2)}, per thread ${busy[7]}`);
process.exit(0);
