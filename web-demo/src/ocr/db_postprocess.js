// PP-OCR's detector outputs a text probability map (DB, "differentiable binarisation").
// Text regions are its connected components above a threshold, kept when confident
// enough, then grown ("unclipped") back to the full text height: the map marks a shrunk
// core of each word line.

const kThreshold = 0.3;   // pixel is text
const kBoxScore = 0.6;    // mean probability a region needs
const kUnclipRatio = 1.5; // PaddleOCR's default growth
const kMinSide = 3;

/**
 * Axis-aligned boxes { x0, y0, x1, y1, score } in map pixels, from `prob` (height x width,
 * row-major), looking at the `validWidth` x `validHeight` corner only (the rest is padding).
 */
export function boxesFromProbabilities(prob, width, height, validWidth, validHeight) {
  const label = new Int32Array(width * height);
  const boxes = [];
  const stack = [];
  for (let start = 0; start < width * height; ++start) {
    const sx = start % width;
    const sy = (start - sx) / width;
    if (sx >= validWidth || sy >= validHeight || label[start] || prob[start] <= kThreshold) continue;
    label[start] = boxes.length + 1;
    stack.push(start);
    let x0 = sx, x1 = sx, y0 = sy, y1 = sy, sum = 0, count = 0;
    while (stack.length) {
      const p = stack.pop();
      const px = p % width;
      const py = (p - px) / width;
      x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
      sum += prob[p];
      ++count;
      for (let dy = -1; dy <= 1; ++dy) {
        for (let dx = -1; dx <= 1; ++dx) {
          const nx = px + dx;
          const ny = py + dy;
          if (nx < 0 || ny < 0 || nx >= validWidth || ny >= validHeight) continue;
          const n = ny * width + nx;
          if (!label[n] && prob[n] > kThreshold) {
            label[n] = boxes.length + 1;
            stack.push(n);
          }
        }
      }
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    const score = sum / count;
    if (Math.min(w, h) < kMinSide || score < kBoxScore) {
      boxes.push(null);  // keeps labels and indices aligned
      continue;
    }
    // Grow by area * ratio / perimeter, as PaddleOCR's unclip does for a polygon.
    const d = (w * h * kUnclipRatio) / (2 * (w + h));
    boxes.push({ x0: Math.max(0, x0 - d), y0: Math.max(0, y0 - d), x1: Math.min(validWidth, x1 + 1 + d),
                 y1: Math.min(validHeight, y1 + 1 + d), score });
  }
  return boxes.filter(Boolean);
}

/** Reading order: top to bottom, left to right within a line. */
export function readingOrder(boxes) {
  return [...boxes].sort((a, b) => {
    const sameLine = Math.abs(a.y0 - b.y0) < Math.min(a.y1 - a.y0, b.y1 - b.y0) / 2;
    return sameLine ? a.x0 - b.x0 : a.y0 - b.y0;
  });
}
