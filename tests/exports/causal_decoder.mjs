// A GPT-2-style decoder (HF GPT2LMHeadModel) as torch.onnx.export(opset_version=17,
// dynamic_axes={batch, sequence}) writes it: Conv1D layers as Reshape -> Gemm -> Reshape with
// run-time targets, a causal mask built per layer from Range/Unsqueeze/GreaterOrEqual and
// applied with Where, gelu_new spelled out (Pow 3, Tanh), a tied LM head, and the greedy next
// token (ArgMax of the last position's logits).
import { FLOAT, INT64, OnnxGraph, mulberry32, uniform } from './onnx_builder.mjs';

const kMaxPositions = 64;
const kFloatMin = -3.4028234663852886e38;  // torch.finfo(torch.float32).min, GPT-2's mask_value
const kEpsilon = 1e-5;  // GPT2Config.layer_norm_epsilon

const dotted = (path) => path.slice(1).replaceAll('/', '.');

/**
 * A small causal LM with seeded random weights; outputs logits [batch, sequence, vocab] and
 * next_token [batch] (int64).
 * @returns {{ bytes: Uint8Array, inputs: {name: string, type: string, dims: (number|string)[]}[] }}
 */
export function causalDecoder({ layers = 2, hidden = 64, heads = 4, vocab = 500, seed = 1 } = {}) {
  const g = new OnnxGraph('causal_decoder');
  const random = mulberry32(seed);
  const headDim = hidden / heads;

  const layerNorm = (path, x) => {
    const gamma = g.initializer(`${dotted(path)}.weight`, uniform(random, hidden, 0.1).map((v) => 1 + v), [hidden]);
    const beta = g.initializer(`${dotted(path)}.bias`, uniform(random, hidden, 0.1), [hidden]);
    return g.scope(path).node('LayerNormalization', [x, gamma, beta], { axis: -1, epsilon: kEpsilon });
  };
  // GPT-2's Conv1D: addmm(bias, x.view(-1, x.size(-1)), weight).view(x.size()[:-1] + (nf,)),
  // weight stored [nx, nf].
  const conv1d = (path, x, nx, nf) => {
    const s = g.scope(path);
    const scale = 1 / Math.sqrt(nx);
    const w = g.initializer(`${dotted(path)}.weight`, uniform(random, nx * nf, scale), [nx, nf]);
    const b = g.initializer(`${dotted(path)}.bias`, uniform(random, nf, scale), [nf]);
    const target = s.shape([s.dim(x, 0), s.dim(x, 1), nf]);
    const flat = s.node('Reshape', [x, s.shape([-1, s.dim(x, 2)])]);
    return s.node('Reshape', [s.node('Gemm', [flat, w, b], { alpha: 1, beta: 1 }), target]);
  };

  const attention = (path, x) => {
    const s = g.scope(path);
    const [q, k, v] = s.node('Split', [conv1d(`${path}/c_attn`, x, hidden, 3 * hidden), s.ints([hidden, hidden, hidden])], { axis: 2 }, { outputs: 3 });
    // _split_heads: view(size()[:-1] + (heads, head_dim)).permute(0, 2, 1, 3)
    const split = (t) => s.node('Transpose', [s.node('Reshape', [t, s.shape([s.dim(t, 0), s.dim(t, 1), heads, headDim])])], { perm: [0, 2, 1, 3] });
    const [query, key, value] = [q, k, v].map(split);
    let scores = s.node('MatMul', [query, s.node('Transpose', [key], { perm: [0, 1, 3, 2] })]);
    scores = s.node('Div', [scores, s.float(Math.sqrt(headDim))]);
    // Causal mask: query row r (offset by key_length - query_length) sees key column c <= r.
    const queryLength = s.dim(query, 2);
    const keyLength = s.dim(key, 2);
    const rows = s.node('Add', [s.node('Range', [s.int(0), queryLength, s.int(1)]), s.node('Sub', [keyLength, queryLength])]);
    const cols = s.node('Range', [s.int(0), keyLength, s.int(1)]);
    const causal = s.node('GreaterOrEqual', [s.node('Unsqueeze', [rows, s.ints([1])]), s.node('Unsqueeze', [cols, s.ints([0])])]);
    scores = s.node('Where', [causal, scores, s.float(kFloatMin)]);
    const probs = s.node('Softmax', [scores], { axis: -1 });
    // _merge_heads: permute(0, 2, 1, 3).view(size()[:-2] + (hidden,))
    const merged = s.node('Transpose', [s.node('MatMul', [probs, value])], { perm: [0, 2, 1, 3] });
    const context = s.node('Reshape', [merged, s.shape([s.dim(merged, 0), s.dim(merged, 1), hidden])]);
    return conv1d(`${path}/c_proj`, context, hidden, hidden);
  };
  // gelu_new: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
  const gelu = (path, x) => {
    const s = g.scope(path);
    const half = s.node('Mul', [s.float(0.5), x]);
    const cubic = s.node('Mul', [s.float(0.044715), s.node('Pow', [x, s.float(3)])]);
    const inner = s.node('Mul', [s.float(Math.sqrt(2 / Math.PI)), s.node('Add', [x, cubic])]);
    return s.node('Mul', [half, s.node('Add', [s.float(1), s.node('Tanh', [inner])])]);
  };

  const inputIds = g.input('input_ids', INT64, ['batch', 'sequence']);
  const t = g.scope('/transformer');
  const wte = uniform(random, vocab * hidden, 1);
  const tokens = g.scope('/transformer/wte').node('Gather', [g.initializer('transformer.wte.weight', wte, [vocab, hidden]), inputIds]);
  // position_ids = arange(0, input_shape[-1]).unsqueeze(0)
  const positionIds = t.node('Unsqueeze', [t.node('Range', [t.int(0), t.dim(inputIds, 1), t.int(1)]), t.ints([0])]);
  const wpe = g.initializer('transformer.wpe.weight', uniform(random, kMaxPositions * hidden, 0.5), [kMaxPositions, hidden]);
  let x = t.node('Add', [tokens, g.scope('/transformer/wpe').node('Gather', [wpe, positionIds])]);

  for (let i = 0; i < layers; i++) {
    const path = `/transformer/h.${i}`;
    const block = g.scope(path);
    x = block.node('Add', [attention(`${path}/attn`, layerNorm(`${path}/ln_1`, x)), x]);
    const expanded = conv1d(`${path}/mlp/c_fc`, layerNorm(`${path}/ln_2`, x), hidden, 4 * hidden);
    x = block.node('Add', [x, conv1d(`${path}/mlp/c_proj`, gelu(`${path}/mlp/act`, expanded), 4 * hidden, hidden)]);
  }
  x = layerNorm('/transformer/ln_f', x);

  // Tied LM head: torch writes a transposed copy of wte for the MatMul.
  const wteT = new Float32Array(hidden * vocab);
  for (let r = 0; r < vocab; r++) for (let c = 0; c < hidden; c++) wteT[c * vocab + r] = wte[r * hidden + c];
  const head = g.initializer('onnx::MatMul_2000', wteT, [hidden, vocab]);
  const logits = g.output(g.scope('/lm_head').node('MatMul', [x, head], {}, { outputs: ['logits'] }), FLOAT, ['batch', 'sequence', vocab]);
  // logits[:, -1, :].argmax(-1)
  const root = g.scope('');
  const last = root.node('Gather', [logits, root.int(-1)], { axis: 1 });
  g.output(root.node('ArgMax', [last], { axis: -1, keepdims: 0 }, { outputs: ['next_token'] }), INT64, ['batch']);

  return { bytes: g.toBytes(), inputs: [{ name: 'input_ids', type: 'int64', dims: ['batch', 'sequence'] }] };
}
