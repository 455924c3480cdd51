// HuggingFace BertModel as torch.onnx.export(opset_version=17, dynamic_axes={batch, sequence})
// writes it: position ids from Range on the run-time length, the int64 attention mask turned
// into an additive float mask, head split/merge Reshapes whose targets come from Shape/Gather/
// Concat, exact Gelu spelled out with Erf, and the pooler (first token -> Gemm -> Tanh).
import { FLOAT, INT64, OnnxGraph, mulberry32, uniform } from './onnx_builder.mjs';

const kFloatMin = -3.4028234663852886e38;  // torch.finfo(torch.float32).min, what HF multiplies by
const kEpsilon = 1e-12;  // BertConfig.layer_norm_eps

// "/encoder/layer.0/attention/self/query" -> "encoder.layer.0.attention.self.query" (parameter names).
const dotted = (path) => path.slice(1).replaceAll('/', '.');

/**
 * A small BERT encoder with seeded random weights.
 * @returns {{ bytes: Uint8Array, inputs: {name: string, type: string, dims: (number|string)[]}[] }}
 */
export function bertLike({ layers = 2, hidden = 64, heads = 4, vocab = 1000, maxPositions = 128, seed = 1 } = {}) {
  const g = new OnnxGraph('bert_like');
  const random = mulberry32(seed);
  const headDim = hidden / heads;
  const inner = 4 * hidden;
  let matmulWeights = 0;

  const table = (name, rows) => g.initializer(name, uniform(random, rows * hidden, 1), [rows, hidden]);
  const layerNorm = (path, x, outputs) => {
    const gamma = g.initializer(`${dotted(path)}.weight`, uniform(random, hidden, 0.1).map((v) => 1 + v), [hidden]);
    const beta = g.initializer(`${dotted(path)}.bias`, uniform(random, hidden, 0.1), [hidden]);
    return g.scope(path).node('LayerNormalization', [x, gamma, beta], { axis: -1, epsilon: kEpsilon }, { outputs });
  };
  // nn.Linear on [batch, sequence, in]: torch writes MatMul by a transposed copy of the weight
  // (an anonymous "onnx::MatMul_N" initializer), then Add(bias, product).
  const linear = (path, x, inDim, outDim) => {
    const s = g.scope(path);
    const scale = 1 / Math.sqrt(inDim);
    const w = g.initializer(`onnx::MatMul_${1000 + matmulWeights++}`, uniform(random, inDim * outDim, scale), [inDim, outDim]);
    const b = g.initializer(`${dotted(path)}.bias`, uniform(random, outDim, scale), [outDim]);
    return s.node('Add', [b, s.node('MatMul', [x, w])]);
  };

  const inputIds = g.input('input_ids', INT64, ['batch', 'sequence']);
  const attentionMask = g.input('attention_mask', INT64, ['batch', 'sequence']);
  const tokenTypeIds = g.input('token_type_ids', INT64, ['batch', 'sequence']);

  // Embeddings: word + token type + position (position ids = arange(seq_length).unsqueeze(0)).
  const e = g.scope('/embeddings');
  const sequence = e.dim(inputIds, 1);
  const positionIds = e.node('Unsqueeze', [e.node('Range', [e.int(0), sequence, e.int(1)]), e.ints([0])]);
  const words = g.scope('/embeddings/word_embeddings').node('Gather', [table('embeddings.word_embeddings.weight', vocab), inputIds]);
  const types = g.scope('/embeddings/token_type_embeddings').node('Gather', [table('embeddings.token_type_embeddings.weight', 2), tokenTypeIds]);
  const positions = g.scope('/embeddings/position_embeddings').node('Gather', [table('embeddings.position_embeddings.weight', maxPositions), positionIds]);
  let x = layerNorm('/embeddings/LayerNorm', e.node('Add', [e.node('Add', [words, types]), positions]));

  // get_extended_attention_mask: mask[:, None, None, :], (1.0 - mask) * finfo.min.
  const root = g.scope('');
  let mask = root.node('Unsqueeze', [root.node('Unsqueeze', [attentionMask, root.ints([1])]), root.ints([2])]);
  mask = root.node('Cast', [mask], { to: FLOAT });
  const extendedMask = root.node('Mul', [root.node('Sub', [root.float(1), mask]), root.float(kFloatMin)]);

  const selfAttention = (path, input) => {
    const s = g.scope(path);
    // transpose_for_scores: view(x.size()[:-1] + (heads, head_dim)).permute(0, 2, 1, 3)
    const splitHeads = (t) => {
      const target = s.shape([s.dim(t, 0), s.dim(t, 1), heads, headDim]);
      return s.node('Transpose', [s.node('Reshape', [t, target])], { perm: [0, 2, 1, 3] });
    };
    const query = splitHeads(linear(`${path}/query`, input, hidden, hidden));
    const key = splitHeads(linear(`${path}/key`, input, hidden, hidden));
    const value = splitHeads(linear(`${path}/value`, input, hidden, hidden));
    let scores = s.node('MatMul', [query, s.node('Transpose', [key], { perm: [0, 1, 3, 2] })]);
    scores = s.node('Add', [s.node('Div', [scores, s.float(Math.sqrt(headDim))]), extendedMask]);
    const probs = s.node('Softmax', [scores], { axis: -1 });
    const context = s.node('Transpose', [s.node('MatMul', [probs, value])], { perm: [0, 2, 1, 3] });
    // view(context.size()[:-2] + (all_head_size,))
    return s.node('Reshape', [context, s.shape([s.dim(context, 0), s.dim(context, 1), hidden])]);
  };
  // Exact Gelu: x * 0.5 * (1 + erf(x / sqrt(2))).
  const gelu = (path, input) => {
    const s = g.scope(path);
    const erf = s.node('Erf', [s.node('Div', [input, s.float(Math.SQRT2)])]);
    return s.node('Mul', [s.node('Mul', [input, s.node('Add', [erf, s.float(1)])]), s.float(0.5)]);
  };

  for (let i = 0; i < layers; i++) {
    const path = `/encoder/layer.${i}`;
    const last = i === layers - 1 ? ['last_hidden_state'] : 1;
    const attention = selfAttention(`${path}/attention/self`, x);
    const attended = linear(`${path}/attention/output/dense`, attention, hidden, hidden);
    x = layerNorm(`${path}/attention/output/LayerNorm`, g.scope(`${path}/attention/output`).node('Add', [attended, x]));
    const intermediate = gelu(`${path}/intermediate/intermediate_act_fn`, linear(`${path}/intermediate/dense`, x, hidden, inner));
    const output = linear(`${path}/output/dense`, intermediate, inner, hidden);
    x = layerNorm(`${path}/output/LayerNorm`, g.scope(`${path}/output`).node('Add', [output, x]), last);
  }
  g.output(x, FLOAT, ['batch', 'sequence', hidden]);

  // Pooler: hidden_states[:, 0] -> Linear (a Gemm on 2-D input, weight kept [out, in]) -> tanh.
  const p = g.scope('/pooler');
  const first = p.node('Gather', [x, p.int(0)], { axis: 1 });
  const scale = 1 / Math.sqrt(hidden);
  const w = g.initializer('pooler.dense.weight', uniform(random, hidden * hidden, scale), [hidden, hidden]);
  const b = g.initializer('pooler.dense.bias', uniform(random, hidden, scale), [hidden]);
  const dense = g.scope('/pooler/dense').node('Gemm', [first, w, b], { alpha: 1, beta: 1, transB: 1 });
  g.output(g.scope('/pooler/activation').node('Tanh', [dense], {}, { outputs: ['pooler_output'] }), FLOAT, ['batch', hidden]);

  const dims = ['batch', 'sequence'];
  return {
    bytes: g.toBytes(),
    inputs: [{ name: 'input_ids', type: 'int64', dims }, { name: 'attention_mask', type: 'int64', dims }, { name: 'token_type_ids', type: 'int64', dims }],
  };
}
