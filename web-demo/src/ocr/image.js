// Canvas helpers for the OCR stages: images in, normalised NCHW float tensors out.

/** A canvas of `width` x `height`, optionally filled with a colour. */
export function canvasOf(width, height, fill = null) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  if (fill) {
    const context = canvas.getContext('2d');
    context.fillStyle = fill;
    context.fillRect(0, 0, width, height);
  }
  return canvas;
}

/**
 * The canvas's pixels as a [1, 3, height, width] tensor in BGR order (PaddleOCR's models were
 * trained on OpenCV's BGR images), (value / 255 - mean) / std per channel; columns from
 * `validWidth` on are 0 (padding after normalisation, as PaddleOCR does).
 */
export function toTensor(canvas, { mean, std, validWidth = canvas.width }) {
  const { width, height } = canvas;
  const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const tensor = new Float32Array(3 * width * height);
  for (let c = 0; c < 3; ++c) {
    const plane = c * width * height;
    for (let y = 0; y < height; ++y) {
      for (let x = 0; x < validWidth; ++x) {
        tensor[plane + y * width + x] = (pixels[(y * width + x) * 4 + 2 - c] / 255 - mean[c]) / std[c];
      }
    }
  }
  return tensor;
}

/** The region { x0, y0, x1, y1 } of `source`, scaled to `height` rows (at most `maxWidth` wide). */
export function cropToHeight(source, { x0, y0, x1, y1 }, height, maxWidth, rotate180 = false) {
  const ratio = (x1 - x0) / Math.max(y1 - y0, 1);
  const width = Math.max(1, Math.min(maxWidth, Math.ceil(height * ratio)));
  const canvas = canvasOf(maxWidth, height);
  const context = canvas.getContext('2d');
  if (rotate180) {
    context.translate(width, height);
    context.rotate(Math.PI);
  }
  context.drawImage(source, x0, y0, x1 - x0, y1 - y0, 0, 0, width, height);
  return { canvas, width };
}
