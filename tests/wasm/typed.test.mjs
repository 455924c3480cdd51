// Typed tensors and symbolic dims through the installed package: int64 token ids and masks
// in, float32 and int64 out, one model run at several batch and sequence lengths, and
// bindings that contradict the model rejected with the input and dim named.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { importFromApp } from './package.mjs';

const { createEngine, TesseraError } = await importFromApp('tessera');

const VOCAB = 20;
const WIDTH = 4;
const table = Float32Array.from({ length: VOCAB * WIDTH }, (_, i) => Math.sin(i) * 2);

// Embeds ids, zeroes the padded positions, sums over the sequence; also returns each row's
// argmax (int64) and the ids' shape (computed from shapes alone).
const model = {
  format: 'tessera',
  version: 2,
  name: 'masked_bag_of_words',
  inputs: [
    { name: 'input_ids', dtype: 'int64', shape: ['batch', 'seq'] },
    { name: 'attention_mask', dtype: 'int64', shape: ['batch', 'seq'] },
  ],
  outputs: [
    { name: 'pooled', dtype: 'float32', shape: ['batch', WIDTH] },
    { name: 'best', dtype: 'int64', shape: ['batch'] },
    { name: 'ids_shape', dtype: 'int64', shape: [2] },
  ],
  initializers: [
    { name: 'table', dtype: 'float32', shape: [VOCAB, WIDTH], offset: 0, length: table.byteLength },
    { name: 'axes', dtype: 'int64', shape: [1], offset: table.byteLength, length: 8 },
  ],
  nodes: [
    { op: 'Gather', name: 'embed', inputs: ['table', 'input_ids'], outputs: ['embedded'] },
    { op: 'Cast', name: 'mask_float', inputs: ['attention_mask'], outputs: ['mask'], attributes: { to: 1 } },
    { op: 'Unsqueeze', name: 'mask3', inputs: ['mask', 'axes'], outputs: ['mask_3d'] },
    { op: 'Mul', name: 'masked', inputs: ['embedded', 'mask_3d'], outputs: ['kept'] },
    { op: 'ReduceSum', name: 'pool', inputs: ['kept', 'axes_seq'], outputs: ['pooled'], attributes: { keepdims: 0 } },
    { op: 'ArgMax', name: 'argmax', inputs: ['pooled'], outputs: ['best'], attributes: { axis: -1, keepdims: 0 } },
    { op: 'Shape', name: 'shape', inputs: ['input_ids'], outputs: ['ids_shape'] },
  ],
};
// ReduceSum over axis 1 (the sequence): its axes input is another int64 initializer.
model.initializers.push({ name: 'axes_seq', dtype: 'int64', shape: [1], offset: table.byteLength + 8, length: 8 });
const weights = new Uint8Array(table.byteLength + 16);
weights.set(new Uint8Array(table.buffer));
new BigInt64Array(weights.buffer, table.byteLength, 2).set([2n, 1n]);

function expected(ids, mask, batch, seq) {
  const pooled = new Float32Array(batch * WIDTH);
  const best = new BigInt64Array(batch);
  for (let b = 0; b < batch; ++b) {
    for (let s = 0; s < seq; ++s) {
      if (!mask[b * seq + s]) continue;
      const id = Number(ids[b * seq + s]);
      for (let w = 0; w < WIDTH; ++w) pooled[b * WIDTH + w] += table[id * WIDTH + w];
    }
    let arg = 0;
    for (let w = 1; w < WIDTH; ++w) if (pooled[b * WIDTH + w] > pooled[b * WIDTH + arg]) arg = w;
    best[b] = BigInt(arg);
  }
  return { pooled, best };
}

function tokens(batch, seq, seed) {
  const ids = new BigInt64Array(batch * seq).map((_, i) => BigInt((i * 7 + seed) % VOCAB));
  const mask = new BigInt64Array(batch * seq).map((_, i) => (i % seq < seq - (i / seq | 0) ? 1n : 0n));
  return { ids, mask };
}

let engine;
let loaded;
before(async () => {
  engine = await createEngine({ threads: 2 });
  loaded = await engine.loadModel(model, weights);
});
after(() => engine.dispose());

describe('typed inputs and outputs with symbolic dims', () => {
  it('declares dtypes and symbolic dims', () => {
    assert.deepEqual(loaded.inputs[0], { name: 'input_ids', dtype: 'int64', dims: ['batch', 'seq'] });
    assert.deepEqual(loaded.outputs[1], { name: 'best', dtype: 'int64', dims: ['batch'] });
    assert.throws(() => loaded.inspect(), /symbolic dims/);
  });

  for (const [batch, seq] of [[1, 5], [3, 8], [2, 64]]) {
    it(`runs at batch ${batch}, sequence ${seq} with int64 ids and mask`, async () => {
      const { ids, mask } = tokens(batch, seq, batch + seq);
      const out = await loaded.run({
        input_ids: { data: ids, dims: [batch, seq] },
        attention_mask: { data: mask, dims: [batch, seq] },
      });
      const want = expected(ids, mask, batch, seq);
      assert.equal(out.pooled.dtype, 'float32');
      assert.deepEqual(out.pooled.dims, [batch, WIDTH]);
      for (let i = 0; i < want.pooled.length; ++i) assert.ok(Math.abs(out.pooled.data[i] - want.pooled[i]) < 1e-5);
      assert.ok(out.best.data instanceof BigInt64Array);
      assert.deepEqual([...out.best.data], [...want.best]);
      assert.deepEqual([...out.ids_shape.data], [BigInt(batch), BigInt(seq)]);
      assert.deepEqual(loaded.inspect().inputs[0], { name: 'input_ids', dtype: 'int64', dims: [batch, seq] });
    });
  }

  it('rejects a wrong dtype, a contradicting binding and missing dims, and keeps working', async () => {
    const { ids, mask } = tokens(1, 4, 0);
    await assert.rejects(
      loaded.run({ input_ids: { data: new Float32Array(4), dims: [1, 4] }, attention_mask: { data: mask, dims: [1, 4] } }),
      (e) => e instanceof TesseraError && /input "input_ids": expected int64 data, got float32/.test(e.message));
    await assert.rejects(
      loaded.run({ input_ids: { data: ids, dims: [1, 4] }, attention_mask: { data: new BigInt64Array(5), dims: [1, 5] } }),
      /input "attention_mask": dim 1 \("seq"\) is 5, but input "input_ids" binds "seq" to 4/);
    await assert.rejects(loaded.run({ input_ids: ids, attention_mask: mask }), /symbolic dims \[batch, seq\]/);
    const out = await loaded.run({ input_ids: { data: ids, dims: [1, 4] }, attention_mask: { data: mask, dims: [1, 4] } });
    assert.deepEqual(out.pooled.dims, [1, WIDTH]);
  });
});
