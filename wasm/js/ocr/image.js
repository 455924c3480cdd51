// Images in, normalised NCHW float tensors out, without a canvas (so the same code serves
// pages, Workers and Node). Images are RGBA { data, width, height } (ImageData is one);
// transparent pixels count as white. Channels go in BGR order: PaddleOCR's models were
// trained on OpenCV's BGR images.

/** PaddleOCR's normalisations: (value / 255 - mean) / std per BGR channel. */
export const kDetectorNorm = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };
export const kLineNorm = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] };

/** Checks an image argument; returns it. */
export function checkImage(image) {
  const { data, width, height } = image ?? {};
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new TypeError('ocr: the image must be ImageData or { data, width, height } with positive integer sizes');
  }
  if (!(data instanceof Uint8ClampedArray || data instanceof Uint8Array) || data.length !== width * height * 4) {
    throw new TypeError(`ocr: the image's data must be ${width * height * 4} RGBA bytes (a Uint8ClampedArray or ` +
                        `Uint8Array), got ${data?.length ?? 'none'}`);
  }
  return image;
}

// Bilinear sample at (x, y) in pixel coordinates (pixel centres at integers), edges
// replicated, composited over white; adds its B, G, R values times `weight` to `bgr`.
function addSample({ data, width, height }, x, y, weight, bgr) {
  const cx = Math.min(Math.max(x, 0), width - 1);
  const cy = Math.min(Math.max(y, 0), height - 1);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const fx = cx - x0;
  const fy = cy - y0;
  const dx = x0 + 1 < width ? 4 : 0;
  const dy = y0 + 1 < height ? 4 * width : 0;
  const i = (y0 * width + x0) * 4;
  addPixel(data, i, weight * (1 - fx) * (1 - fy), bgr);
  addPixel(data, i + dx, weight * fx * (1 - fy), bgr);
  addPixel(data, i + dy, weight * (1 - fx) * fy, bgr);
  addPixel(data, i + dx + dy, weight * fx * fy, bgr);
}

function addPixel(data, i, weight, bgr) {
  const alpha = data[i + 3] / 255;
  const white = 255 * (1 - alpha);
  bgr[0] += weight * (data[i + 2] * alpha + white);
  bgr[1] += weight * (data[i + 1] * alpha + white);
  bgr[2] += weight * (data[i] * alpha + white);
}

/**
 * The detector's input: the image scaled so that its longer side is at most `maxSide`, both
 * sides then rounded to multiples of 32 (PaddleOCR's DetResizeForTest). Returns { tensor,
 * width, height } with tensor [1, 3, height, width].
 */
export function detectorInput(image, maxSide) {
  const ratio = Math.min(1, maxSide / Math.max(image.width, image.height));
  const width = Math.max(32, Math.round((image.width * ratio) / 32) * 32);
  const height = Math.max(32, Math.round((image.height * ratio) / 32) * 32);
  const tensor = new Float32Array(3 * width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  const { mean, std } = kDetectorNorm;
  const bgr = new Float64Array(3);
  for (let y = 0; y < height; ++y) {
    for (let x = 0; x < width; ++x) {
      bgr.fill(0);
      addSample(image, (x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5, 1, bgr);
      for (let c = 0; c < 3; ++c) tensor[(c * height + y) * width + x] = (bgr[c] / 255 - mean[c]) / std[c];
    }
  }
  return { tensor, width, height };
}

/**
 * Writes the quadrilateral `quad` (corners top-left, top-right, bottom-right, bottom-left) of
 * the image, straightened to `rows` x `columns`, into item `index` of `tensor` [n, 3, rows,
 * stride]; columns from `columns` to `stride` are left 0 (padding after normalisation, as
 * PaddleOCR pads). Scaling down by more than 2 averages several samples per pixel.
 */
export function writeLine(tensor, index, image, quad, rows, columns, stride, inset = 0) {
  const [tl, tr, , bl] = quad;
  const inner = rows - 2 * inset;
  const across = [(tr[0] - tl[0]) / columns, (tr[1] - tl[1]) / columns];
  const down = [(bl[0] - tl[0]) / inner, (bl[1] - tl[1]) / inner];
  const step = Math.max(Math.hypot(...across), Math.hypot(...down));
  const n = Math.min(4, Math.max(1, Math.ceil(step / 2)));  // samples per axis
  const { mean, std } = kLineNorm;
  const bgr = new Float64Array(3);
  const item = index * 3 * rows * stride;
  for (let y = 0; y < rows; ++y) {
    for (let x = 0; x < columns; ++x) {
      bgr.fill(0);
      for (let j = 0; j < n; ++j) {
        for (let i = 0; i < n; ++i) {
          const u = x + (i + 0.5) / n;
          const v = Math.min(Math.max(y - inset + (j + 0.5) / n, 0.5), inner - 0.5);
          addSample(image, tl[0] + u * across[0] + v * down[0] - 0.5, tl[1] + u * across[1] + v * down[1] - 0.5,
                    1 / (n * n), bgr);
        }
      }
      for (let c = 0; c < 3; ++c) tensor[item + (c * rows + y) * stride + x] = (bgr[c] / 255 - mean[c]) / std[c];
    }
  }
}
