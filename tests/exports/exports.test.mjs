// The export-shaped generators build models that onnxruntime runs at several shapes, whose
// outputs behave like the real models' (masking, causality, anchor grids), and which keep
// the parts of torch exports that are hard to convert: symbolic dims and shape arithmetic.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import onnxProto from 'onnx-proto';
import ort from 'onnxruntime-node';

import { bertLike, causalDecoder, randomInputs, yoloLike } from './index.mjs';

const { onnx } = onnxProto;

async function run(session, feeds) {
  const tensors = Object.fromEntries(Object.entries(feeds).map(([name, { type, data, dims }]) => [name, new ort.Tensor(type, data, dims)]));
  return session.run(tensors);
}

function assertFinite(tensor, what) {
  const bad = tensor.data.findIndex((v) => !Number.isFinite(v));
  assert.equal(bad, -1, `${what}: element ${bad} is ${tensor.data[bad]}`);
}

function maxDifference(a, b) {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

const dimsOf = (valueInfo) => valueInfo.type.tensorType.shape.dim.map((d) => d.dimParam || Number(d.dimValue));

/**
 * The model is laid out like a torch export: opset 17, raw_data initializers, the declared
 * symbolic boundary dims, every op in `ops`, and each of `runtime` (op -> input index) fed by
 * a value computed from a Shape node somewhere upstream (not a constant).
 */
function assertExportLayout(bytes, { inputs, outputs, ops, runtime }) {
  const model = onnx.ModelProto.decode(bytes);
  assert.equal(Number(model.irVersion), 8);
  assert.deepEqual(model.opsetImport.map((o) => [o.domain, Number(o.version)]), [['', 17]]);
  const { graph } = model;
  assert.deepEqual(Object.fromEntries(graph.input.map((v) => [v.name, dimsOf(v)])), inputs);
  assert.deepEqual(Object.fromEntries(graph.output.map((v) => [v.name, dimsOf(v)])), outputs);
  assert.ok(graph.input.every((v) => dimsOf(v).some((d) => typeof d === 'string')), 'every input has a dim_param');
  assert.ok(graph.initializer.every((t) => t.rawData.length > 0), 'initializers are stored as raw_data');

  const present = new Set(graph.node.map((n) => n.opType));
  assert.deepEqual(ops.filter((op) => !present.has(op)), [], 'ops missing from the export');

  const producer = new Map(graph.node.flatMap((n) => n.output.map((o) => [o, n])));
  const fromShape = (name, seen = new Set()) => {
    const node = producer.get(name);
    if (!node || seen.has(node)) return false;
    seen.add(node);
    return node.opType === 'Shape' || node.input.some((i) => fromShape(i, seen));
  };
  for (const [op, index] of Object.entries(runtime)) {
    const nodes = graph.node.filter((n) => n.opType === op);
    assert.ok(nodes.some((n) => fromShape(n.input[index])), `some ${op} takes input ${index} from run-time shape arithmetic`);
  }
}

describe('bertLike', () => {
  const hidden = 64;
  let model;
  let session;
  before(async () => {
    model = bertLike({ seed: 11 });
    session = await ort.InferenceSession.create(model.bytes);
  });

  it('keeps the export layout: symbolic dims, Range positions, HF mask arithmetic, run-time Reshape targets', () => {
    const dims = ['batch', 'sequence'];
    assertExportLayout(model.bytes, {
      inputs: { input_ids: dims, attention_mask: dims, token_type_ids: dims },
      outputs: { last_hidden_state: ['batch', 'sequence', hidden], pooler_output: ['batch', hidden] },
      ops: ['Shape', 'Gather', 'Unsqueeze', 'Concat', 'Reshape', 'Range', 'Cast', 'Sub', 'Mul', 'Div', 'Erf', 'LayerNormalization',
        'Transpose', 'MatMul', 'Softmax', 'Gemm', 'Tanh'],
      runtime: { Range: 1, Reshape: 1 },
    });
  });

  for (const [batch, sequence] of [[1, 8], [2, 13], [1, 64]]) {
    it(`runs at batch ${batch}, sequence ${sequence}`, async () => {
      const { last_hidden_state: states, pooler_output: pooled } = await run(session, randomInputs('bertLike', { batch, sequence }, batch * 100 + sequence));
      assert.deepEqual(states.dims, [batch, sequence, hidden]);
      assert.deepEqual(pooled.dims, [batch, hidden]);
      assertFinite(states, 'last_hidden_state');
      assertFinite(pooled, 'pooler_output');
      assert.ok(pooled.data.every((v) => v > -1 && v < 1), 'pooler_output is a tanh');
    });
  }

  it('ignores the token ids under padding', async () => {
    const [batch, sequence] = [2, 13];
    const feeds = randomInputs('bertLike', { batch, sequence }, 7);
    const length = feeds.attention_mask.data.slice(sequence).indexOf(0n);
    assert.ok(length > 0 && length < sequence, 'row 1 is padded');
    const base = await run(session, feeds);
    // Real tokens (row 1's first `length` positions, all of row 0) and both pooled rows.
    const kept = (r) => [...r.last_hidden_state.data.slice(0, (sequence + length) * hidden), ...r.pooler_output.data];

    const repadded = structuredClone(feeds);
    for (let i = length; i < sequence; i++) repadded.input_ids.data[sequence + i] = BigInt(1 + ((i * 37) % 999));
    assert.ok(maxDifference(kept(base), kept(await run(session, repadded))) < 1e-5, 'padding ids leaked into real tokens');

    // The padded row equals the same tokens run alone without padding.
    const alone = Object.fromEntries(Object.entries(feeds).map(([name, t]) => [name, { ...t, data: t.data.slice(sequence, sequence + length), dims: [1, length] }]));
    const single = await run(session, alone);
    assert.ok(maxDifference(single.last_hidden_state.data, base.last_hidden_state.data.slice(sequence * hidden, (sequence + length) * hidden)) < 1e-4);
    assert.ok(maxDifference(single.pooler_output.data, base.pooler_output.data.slice(hidden)) < 1e-4);

    // Control: changing a real token does change the row.
    const changed = structuredClone(feeds);
    changed.input_ids.data[sequence] = (changed.input_ids.data[sequence] + 1n) % 1000n;
    assert.ok(maxDifference(kept(base), kept(await run(session, changed))) > 1e-3, 'a real token changed nothing');
  });
});

describe('yoloLike', () => {
  const classes = 4;
  let model;
  let session;
  before(async () => {
    model = yoloLike({ seed: 5, classes });
    session = await ort.InferenceSession.create(model.bytes);
  });

  it('keeps the export layout: symbolic height/width, SiLU, C2f Split, Resize, anchors from feature shapes', () => {
    assertExportLayout(model.bytes, {
      inputs: { images: [1, 3, 'height', 'width'] },
      outputs: { output0: [1, 4 + classes, 'anchors'] },
      ops: ['Conv', 'Sigmoid', 'Mul', 'Split', 'Concat', 'Resize', 'Shape', 'Gather', 'Range', 'Cast', 'Reshape', 'Expand', 'Unsqueeze',
        'ConstantOfShape', 'Transpose', 'Softmax', 'Sub', 'Add', 'Div'],
      runtime: { Range: 1, Reshape: 1, Expand: 1, ConstantOfShape: 0 },
    });
  });

  for (const [height, width] of [[320, 320], [256, 384], [416, 224]]) {
    it(`detects on 1x3x${height}x${width}`, async () => {
      const { output0 } = await run(session, randomInputs('yoloLike', { height, width }, height + width));
      const levels = [16, 32].map((stride) => ({ stride, rows: height / stride, cols: width / stride }));
      const anchors = levels.reduce((n, l) => n + l.rows * l.cols, 0);
      assert.deepEqual(output0.dims, [1, 4 + classes, anchors]);
      assertFinite(output0, 'output0');
      const at = (channel, a) => output0.data[channel * anchors + a];
      // Every box contains its anchor point (DFL distances are >= 0), anchors in row-major
      // order per level, level by level: checks the run-time grid against the expected one.
      let a = 0;
      for (const { stride, rows, cols } of levels) {
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++, a++) {
            const [cx, cy, w, h] = [0, 1, 2, 3].map((k) => at(k, a));
            assert.ok(w >= 0 && h >= 0, `anchor ${a}: negative size`);
            assert.ok(Math.abs(cx - (c + 0.5) * stride) <= w / 2 + 1e-3, `anchor ${a}: x ${cx} +- ${w / 2} misses ${(c + 0.5) * stride}`);
            assert.ok(Math.abs(cy - (r + 0.5) * stride) <= h / 2 + 1e-3, `anchor ${a}: y ${cy} +- ${h / 2} misses ${(r + 0.5) * stride}`);
            for (let k = 4; k < 4 + classes; k++) assert.ok(at(k, a) > 0 && at(k, a) < 1, 'class scores are sigmoids');
          }
        }
      }
    });
  }
});

describe('causalDecoder', () => {
  const vocab = 500;
  let model;
  let session;
  before(async () => {
    model = causalDecoder({ seed: 3, vocab });
    session = await ort.InferenceSession.create(model.bytes);
  });

  it('keeps the export layout: symbolic dims, run-time causal mask, Conv1D Reshape/Gemm, gelu_new, ArgMax', () => {
    assertExportLayout(model.bytes, {
      inputs: { input_ids: ['batch', 'sequence'] },
      outputs: { logits: ['batch', 'sequence', vocab], next_token: ['batch'] },
      ops: ['Shape', 'Gather', 'Unsqueeze', 'Concat', 'Reshape', 'Range', 'GreaterOrEqual', 'Where', 'Gemm', 'Split', 'Pow', 'Tanh',
        'LayerNormalization', 'Softmax', 'ArgMax'],
      runtime: { Range: 1, Reshape: 1, GreaterOrEqual: 0 },
    });
  });

  for (const [batch, sequence] of [[1, 5], [2, 17]]) {
    it(`runs at batch ${batch}, sequence ${sequence}; next_token is the argmax of the last logits`, async () => {
      const { logits, next_token: next } = await run(session, randomInputs('causalDecoder', { batch, sequence }, sequence));
      assert.deepEqual(logits.dims, [batch, sequence, vocab]);
      assert.deepEqual(next.dims, [batch]);
      assert.equal(next.type, 'int64');
      assertFinite(logits, 'logits');
      for (let b = 0; b < batch; b++) {
        const last = logits.data.subarray(((b + 1) * sequence - 1) * vocab, (b + 1) * sequence * vocab);
        const best = last.reduce((arg, v, i) => (v > last[arg] ? i : arg), 0);
        assert.equal(next.data[b], BigInt(best), `row ${b}`);
      }
    });
  }

  it('is causal: logits at position i ignore later tokens', async () => {
    const [batch, sequence, prefix] = [2, 17, 9];
    const feeds = randomInputs('causalDecoder', { batch, sequence }, 21);
    const base = (await run(session, feeds)).logits.data;
    const changed = structuredClone(feeds);
    for (let i = 0; i < changed.input_ids.data.length; i++) {
      if (i % sequence >= prefix) changed.input_ids.data[i] = (changed.input_ids.data[i] + 1n) % BigInt(vocab);
    }
    const other = (await run(session, changed)).logits.data;
    const rows = (data, from, to) => Array.from({ length: batch }, (_, b) => [...data.slice((b * sequence + from) * vocab, (b * sequence + to) * vocab)]).flat();
    assert.ok(maxDifference(rows(base, 0, prefix), rows(other, 0, prefix)) < 1e-4, 'earlier positions saw later tokens');
    assert.ok(maxDifference(rows(base, prefix, sequence), rows(other, prefix, sequence)) > 1e-2, 'control: changed tokens changed nothing');

    // The prefix alone gives the same logits (the mask follows the run-time length).
    const ids = Array.from({ length: batch }, (_, b) => [...feeds.input_ids.data.slice(b * sequence, b * sequence + prefix)]).flat();
    const short = await run(session, { input_ids: { type: 'int64', data: BigInt64Array.from(ids), dims: [batch, prefix] } });
    assert.ok(maxDifference(short.logits.data, rows(base, 0, prefix)) < 1e-3);
  });
});
