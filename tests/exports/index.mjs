// The export-shaped test models and seeded inputs for them.
import { mulberry32 } from './onnx_builder.mjs';

export { bertLike } from './bert_like.mjs';
export { causalDecoder } from './causal_decoder.mjs';
export { yoloLike } from './yolo_like.mjs';

const randomIds = (random, count, vocab) => BigInt64Array.from({ length: count }, () => BigInt(Math.floor(random() * vocab)));

// Like a tokenizer's batch: row 0 full, later rows end in padding (mask 0, pad id 0,
// token type 0); the second segment of each row has token type 1.
function bertInputs({ batch, sequence, vocab = 1000 }, random) {
  const inputIds = randomIds(random, batch * sequence, vocab);
  const attentionMask = new BigInt64Array(batch * sequence);
  const tokenTypeIds = new BigInt64Array(batch * sequence);
  for (let b = 0; b < batch; b++) {
    const length = b === 0 ? sequence : 1 + Math.floor(random() * (sequence - 1));
    const secondSegment = 1 + Math.floor(random() * length);
    for (let i = 0; i < sequence; i++) {
      const at = b * sequence + i;
      if (i >= length) inputIds[at] = 0n;
      attentionMask[at] = i < length ? 1n : 0n;
      tokenTypeIds[at] = i >= secondSegment && i < length ? 1n : 0n;
    }
  }
  const dims = [batch, sequence];
  return {
    input_ids: { type: 'int64', data: inputIds, dims },
    attention_mask: { type: 'int64', data: attentionMask, dims },
    token_type_ids: { type: 'int64', data: tokenTypeIds, dims },
  };
}

function yoloInputs({ height, width }, random) {
  return { images: { type: 'float32', data: Float32Array.from({ length: 3 * height * width }, random), dims: [1, 3, height, width] } };
}

function decoderInputs({ batch, sequence, vocab = 500 }, random) {
  return { input_ids: { type: 'int64', data: randomIds(random, batch * sequence, vocab), dims: [batch, sequence] } };
}

const kInputs = { bertLike: bertInputs, yoloLike: yoloInputs, causalDecoder: decoderInputs };

/**
 * Seeded feeds for one model, as { name: { type, data, dims } } (wrap each in
 * `new ort.Tensor(type, data, dims)` for onnxruntime).
 * @param {'bertLike'|'yoloLike'|'causalDecoder'} modelName
 * @param {object} dims bertLike/causalDecoder: { batch, sequence, vocab? }; yoloLike: { height, width }
 * @param {number} seed
 */
export function randomInputs(modelName, dims, seed = 1) {
  const make = kInputs[modelName];
  if (!make) throw new Error(`unknown model "${modelName}" (expected one of ${Object.keys(kInputs).join(', ')})`);
  return make(dims, mulberry32(seed));
}
