// Inputs and output comparison shared by the cross-checks, the package tests and the
// benchmarks: seeded noise, a synthetic text page for the OCR models, relative error.
// No dependencies.

/** Uniform values in [-1, 1) from a fixed LCG: the same input for both engines. */
export function randomInput(count, seed) {
  const values = new Float32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values[i] = (state >>> 8) / (1 << 24) * 2 - 1;
  }
  return values;
}

export const product = (dims) => dims.reduce((a, b) => a * b, 1);

/**
 * A normalised NCHW "page": white background with dark glyph-like blocks on text lines,
 * so that OCR models produce confident outputs (on noise, PP-OCR's detector outputs
 * probabilities near 0, and relative comparisons measure only rounding).
 */
export function textPage([n, c, h, w]) {
  const values = new Float32Array(n * c * h * w);
  const lineHeight = Math.max(16, Math.floor(h / 16));
  for (let i = 0; i < n * c; ++i) {
    for (let y = 0; y < h; ++y) {
      const line = Math.floor(y / lineHeight);
      const inLine = y % lineHeight >= lineHeight * 0.3 && y % lineHeight < lineHeight * 0.7;
      for (let x = 0; x < w; ++x) {
        const glyph = inLine && (x * 7 + line * 13) % 23 < 9 && x > w * 0.06 && x < w * 0.94;
        values[(i * h + y) * w + x] = glyph ? -1.8 : 2.0;
      }
    }
  }
  return values;
}

/** max |a - b| over all elements divided by max |b|. */
export function relativeError(actual, expected) {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < expected.length; ++i) {
    diff = Math.max(diff, Math.abs(actual[i] - expected[i]));
    scale = Math.max(scale, Math.abs(expected[i]));
  }
  return diff / Math.max(scale, 1e-30);
}
