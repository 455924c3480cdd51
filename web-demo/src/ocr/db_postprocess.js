// PP-OCR's detector outputs a text probability map (DB, "differentiable binarisation").
// Text regions are its connected components above a threshold, kept when confident
// enough, then grown ("unclipped") back to the full text height: the map marks a shrunk
// core of each word line.

const kThreshold = 0.3;   // pixel is text
const kBoxScore = 0.6;    // mean probability a region needs
const kUnclipRatio = 1.5; // PaddleOCR's default growth
const kMinSide = 3;      // pixels of the map

/**
 * Axis-aligned boxes { x0, y0, x1, y1, score } in map pixels, from `prob` (height x width,
 * row-major), looking at the `validWidth` x `validHeight` corner only (the rest is padding).
 */
export function boxesFromProbabilities(prob, width, height, validWidth, validHeight) {
  const visited = new Uint8Array(width * height);
  const boxes = [];
  const stack = [];
  for (let start = 0; start < width * height; ++start) {
    const sx = start % width;
    const sy = (start - sx) / width;
    if (sx >= validWidth || sy >= validHeight || visited[start] || prob[start] <= kThreshold) continue;
    visited[start] = 1;
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
          if (!visited[n] && prob[n] > kThreshold) {
            visited[n] = 1;
            stack.push(n);
          }
        }
      }
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    const score = sum / count;
    if (Math.min(w, h) < kMinSide || score < kBoxScore) continue;
    // Grow by area * ratio / perimeter, as PaddleOCR's unclip does for a polygon.
    const d = (w * h * kUnclipRatio) / (2 * (w + h));
    boxes.push({ x0: Math.max(0, x0 - d), y0: Math.max(0, y0 - d), x1: Math.min(validWidth, x1 + 1 + d),
                 y1: Math.min(validHeight, y1 + 1 + d), score });
  }
  return boxes;
}

/**
 * Reading order: boxes sorted by top edge are gathered into lines (a box whose vertical
 * centre lies within the current line's extent joins it), each line left to right.
 */
export function readingOrder(boxes) {
  const lines = [];
  for (const box of [...boxes].sort((a, b) => a.y0 - b.y0)) {
    const line = lines.at(-1);
    const centre = (box.y0 + box.y1) / 2;
    if (line && centre >= line.y0 && centre <= line.y1) {
      line.boxes.push(box);
      line.y1 = Math.max(line.y1, box.y1);
    } else {
      lines.push({ y0: box.y0, y1: box.y1, boxes: [box] });
    }
  }
  return lines.flatMap((line) => line.boxes.sort((a, b) => a.x0 - b.x0));
}
