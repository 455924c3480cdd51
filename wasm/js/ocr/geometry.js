// Plane geometry for text boxes: convex hulls, minimum-area rotated rectangles (what OpenCV's
// minAreaRect gives PaddleOCR), and quadrilaterals as four corners [x, y] in the order
// top-left, top-right, bottom-right, bottom-left.

const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** The convex hull of `points` ([x, y]), counter-clockwise (Andrew's monotone chain). */
export function convexHull(points) {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted;
  const half = (list) => {
    const hull = [];
    for (const p of list) {
      while (hull.length >= 2 && cross(hull.at(-2), hull.at(-1), p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
    return hull;
  };
  return [...half(sorted), ...half(sorted.reverse())];
}

/**
 * The smallest rectangle around `points`: { center: [x, y], axis: [ux, uy] (unit, along the
 * width), width, height }. One side lies on a hull edge (rotating calipers).
 */
export function minAreaRect(points) {
  const hull = convexHull(points);
  let best = null;
  for (let i = 0; i < hull.length; ++i) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length === 0) continue;
    const u = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const p of hull) {
      const pu = p[0] * u[0] + p[1] * u[1];
      const pv = -p[0] * u[1] + p[1] * u[0];
      minU = Math.min(minU, pu); maxU = Math.max(maxU, pu);
      minV = Math.min(minV, pv); maxV = Math.max(maxV, pv);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (!best || area < best.area) {
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = { area, center: [cu * u[0] - cv * u[1], cu * u[1] + cv * u[0]], axis: u,
               width: maxU - minU, height: maxV - minV };
    }
  }
  if (!best) return { center: [...hull[0]], axis: [1, 0], width: 0, height: 0 };  // one point
  const { center, axis, width, height } = best;
  // The width runs along the side nearer the horizontal, pointing right; a tall box stays
  // tall (the crop turns it, as PaddleOCR does, when it is clearly a column).
  const rect = Math.abs(axis[0]) >= Math.abs(axis[1]) ? { center, axis, width, height }
    : { center, axis: [-axis[1], axis[0]], width: height, height: width };
  return rect.axis[0] < 0 ? { ...rect, axis: [-rect.axis[0], -rect.axis[1]] } : rect;
}

/** The rectangle's corners: top-left, top-right, bottom-right, bottom-left (y grows down). */
export function rectCorners({ center: [cx, cy], axis: [ux, uy], width, height }) {
  const [wx, wy] = [ux * width / 2, uy * width / 2];
  const [hx, hy] = [-uy * height / 2, ux * height / 2];  // points down when the axis points right
  return [[cx - wx - hx, cy - wy - hy], [cx + wx - hx, cy + wy - hy], [cx + wx + hx, cy + wy + hy],
          [cx - wx + hx, cy - wy + hy]];
}

/** Grows the rectangle by `distance` on every side. */
export const growRect = (rect, distance) => ({ ...rect, width: rect.width + 2 * distance,
                                               height: rect.height + 2 * distance });

/** Whether [x, y] lies inside the convex quadrilateral `quad` (corners in order). */
export function insideQuad(quad, x, y) {
  let sign = 0;
  for (let i = 0; i < 4; ++i) {
    const side = Math.sign(cross(quad[i], quad[(i + 1) % 4], [x, y]));
    if (side === 0) continue;
    if (sign === 0) sign = side;
    else if (side !== sign) return false;
  }
  return true;
}

/** Side lengths of a quadrilateral: { width: the longer of top and bottom, height: of left and right }. */
export function quadSize([tl, tr, br, bl]) {
  const length = (a, b) => Math.hypot(b[0] - a[0], b[1] - a[1]);
  return { width: Math.max(length(tl, tr), length(bl, br)), height: Math.max(length(tl, bl), length(tr, br)) };
}
