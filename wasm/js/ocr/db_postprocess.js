// PP-OCR's detector outputs a text probability map (DB, "differentiable binarisation") that
// marks a shrunk core of each text line. As PaddleOCR's DBPostProcess: pixels above a
// threshold form regions; each region's minimum-area rotated rectangle is kept when the
// map's mean inside it is high enough, then grown back ("unclipped") by area * ratio /
// perimeter, the offset PaddleOCR's polygon clipper applies. The ratio is 2.5, not
// PaddleOCR's 1.5: on tighter crops the recogniser drops spaces (on the test renders, 1.5
// gave 5-9 % character errors, 2.5 at most 1.7 %; 3.0 reaches into neighbouring lines).
import { growRect, insideQuad, minAreaRect, rectCorners } from './geometry.js';

export const kDetectDefaults = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 2.5, maxCandidates: 1000 };
const kMinSide = 3;  // map pixels

/**
 * Rotated rectangles { rect, score } (geometry.js's rects, in map pixels) from `prob`
 * (height x width, row-major).
 */
export function detectRects(prob, width, height, options = {}) {
  const { threshold, boxThreshold, unclipRatio, maxCandidates } = { ...kDetectDefaults, ...options };
  const found = [];
  for (const points of regions(prob, width, height, threshold)) {
    if (found.length >= maxCandidates) break;
    const rect = minAreaRect(points);
    if (Math.min(rect.width, rect.height) < kMinSide) continue;
    const score = meanInside(prob, width, height, rectCorners(rect));
    if (score < boxThreshold) continue;
    const grown = growRect(rect, (rect.width * rect.height * unclipRatio) / (2 * (rect.width + rect.height)));
    if (Math.min(grown.width, grown.height) < kMinSide + 2) continue;
    found.push({ rect: grown, score });
  }
  return found;
}

// The 8-connected regions above `threshold`, each as the outermost pixel of each of its rows
// (enough for its convex hull), in the order their first pixel is met.
function* regions(prob, width, height, threshold) {
  const visited = new Uint8Array(width * height);
  const stack = [];
  for (let start = 0; start < width * height; ++start) {
    if (visited[start] || prob[start] <= threshold) continue;
    visited[start] = 1;
    stack.push(start);
    const rows = new Map();  // y -> [min x, max x]
    while (stack.length) {
      const p = stack.pop();
      const x = p % width;
      const y = (p - x) / width;
      const row = rows.get(y);
      if (row) {
        row[0] = Math.min(row[0], x);
        row[1] = Math.max(row[1], x);
      } else {
        rows.set(y, [x, x]);
      }
      for (let dy = -1; dy <= 1; ++dy) {
        for (let dx = -1; dx <= 1; ++dx) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const n = ny * width + nx;
          if (!visited[n] && prob[n] > threshold) {
            visited[n] = 1;
            stack.push(n);
          }
        }
      }
    }
    yield [...rows].flatMap(([y, [x0, x1]]) => [[x0, y], [x1, y]]);
  }
}

// The mean of the map over the pixels whose centres lie in `quad`.
function meanInside(prob, width, height, quad) {
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  let sum = 0;
  let count = 0;
  for (let y = y0; y <= y1; ++y) {
    for (let x = x0; x <= x1; ++x) {
      if (!insideQuad(quad, x, y)) continue;
      sum += prob[y * width + x];
      ++count;
    }
  }
  return count ? sum / count : 0;
}

/**
 * PaddleOCR's reading order of lines { box }: by top-left corner, top to bottom, then left
 * to right among boxes whose tops are within 10 pixels.
 */
export function readingOrder(lines) {
  const top = (line) => line.box[0];
  const sorted = [...lines].sort((a, b) => top(a)[1] - top(b)[1] || top(a)[0] - top(b)[0]);
  for (let i = 0; i + 1 < sorted.length; ++i) {
    for (let j = i; j >= 0; --j) {
      if (Math.abs(top(sorted[j + 1])[1] - top(sorted[j])[1]) < 10 && top(sorted[j + 1])[0] < top(sorted[j])[0]) {
        [sorted[j], sorted[j + 1]] = [sorted[j + 1], sorted[j]];
      } else {
        break;
      }
    }
  }
  return sorted;
}
