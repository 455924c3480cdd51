// tessera/ocr's parts on synthetic data, without the models: rotated rectangles from points
// and from a probability map, PaddleOCR's reading order, width buckets, the crops' orientation
// (upside down, columns) seen through stub models, and errors for images that are not RGBA.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { detectRects, readingOrder } from '../../wasm/js/ocr/db_postprocess.js';
import { minAreaRect, rectCorners } from '../../wasm/js/ocr/geometry.js';
import { Ocr, bucketOf } from '../../wasm/js/ocr/index.js';

const near = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

// The integer points inside a rectangle of `width` x `height` centred at (cx, cy), turned by `degrees`.
function rotatedRectPoints(cx, cy, width, height, degrees) {
  const a = (degrees * Math.PI) / 180;
  const points = [];
  for (let y = 0; y < 200; ++y) {
    for (let x = 0; x < 300; ++x) {
      const u = (x - cx) * Math.cos(a) + (y - cy) * Math.sin(a);
      const v = -(x - cx) * Math.sin(a) + (y - cy) * Math.cos(a);
      if (Math.abs(u) <= width / 2 && Math.abs(v) <= height / 2) points.push([x, y]);
    }
  }
  return points;
}

it('minAreaRect recovers a turned rectangle: size, centre, and an axis along its length', () => {
  const rect = minAreaRect(rotatedRectPoints(150, 100, 160, 30, -4));
  near(rect.width, 160, 2, 'width');
  near(rect.height, 30, 2, 'height');
  near(rect.center[0], 150, 1, 'centre x');
  near(rect.center[1], 100, 1, 'centre y');
  near((Math.atan2(rect.axis[1], rect.axis[0]) * 180) / Math.PI, -4, 0.5, 'angle');
  const [tl, tr, br, bl] = rectCorners(rect);
  assert.ok(tl[0] < tr[0] && bl[0] < br[0] && tl[1] < bl[1] && tr[1] < br[1], 'corners in reading order');
});

it('a tall rectangle keeps its width along the horizontal side', () => {
  const rect = minAreaRect(rotatedRectPoints(150, 100, 20, 120, 0));
  near(rect.width, 20, 1, 'width');
  near(rect.height, 120, 1, 'height');
  assert.ok(rect.axis[0] > 0.99);
});

it('detectRects: a turned text core becomes one rectangle grown by the unclip offset; faint regions are dropped', () => {
  const [width, height] = [300, 200];
  const prob = new Float32Array(width * height);
  for (const [x, y] of rotatedRectPoints(150, 70, 160, 16, 3)) prob[y * width + x] = 0.9;
  for (const [x, y] of rotatedRectPoints(150, 160, 100, 16, 0)) prob[y * width + x] = 0.4;  // above 0.3, mean below 0.6
  const found = detectRects(prob, width, height);
  assert.equal(found.length, 1);
  const { rect, score } = found[0];
  near(score, 0.9, 0.01, 'score');
  // Unclip: area * 2.5 / perimeter on each side, from the core's minimum-area rectangle.
  const d = (160 * 16 * 2.5) / (2 * (160 + 16));
  near(rect.width, 160 + 2 * d, 3, 'grown width');
  near(rect.height, 16 + 2 * d, 3, 'grown height');
  near((Math.atan2(rect.axis[1], rect.axis[0]) * 180) / Math.PI, 3, 0.5, 'angle');
});

it('reads rows top to bottom and left to right when their tops are within 10 pixels', () => {
  const at = (x, y) => ({ box: [[x, y], [x + 10, y], [x + 10, y + 5], [x, y + 5]], name: `${x},${y}` });
  const order = readingOrder([at(200, 52), at(10, 100), at(10, 55), at(300, 47)]).map((line) => line.name);
  assert.deepEqual(order, ['10,55', '200,52', '300,47', '10,100']);
});

it('pads widths to buckets, and beyond them to multiples of 640', () => {
  assert.deepEqual([1, 160, 161, 330, 3200, 3201].map(bucketOf), [160, 160, 240, 480, 3200, 3840]);
});

// An image whose red channel rises from left to right (blue from top to bottom), and stub
// models: the detector finds one box, the classifier says `upsideDown`, the recogniser keeps
// the tensors it is given and reads "ok".
function gradientImage(width, height) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; ++y) {
    for (let x = 0; x < width; ++x) {
      data.set([(255 * x) / width, 128, (255 * y) / height, 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

function stubModels(box, upsideDown) {
  const seen = [];
  const run = (outputs) => ({ inputs: [{ name: 'x' }], run: async (inputs) => outputs(inputs.x) });
  return {
    seen,
    models: {
      det: run(({ dims: [, , h, w] }) => {
        const prob = new Float32Array(h * w);
        for (let y = box.y0; y < box.y1; ++y) prob.fill(0.9, y * w + box.x0, y * w + box.x1);
        return { map: { data: prob, dims: [1, 1, h, w] } };
      }),
      cls: run(() => ({ p: { data: new Float32Array(upsideDown ? [0.02, 0.98] : [0.98, 0.02]), dims: [1, 2] } })),
      rec: run((x) => {
        seen.push(x);
        const steps = x.dims[3] / 8;
        const probs = new Float32Array(steps * 4);  // blank, 'o', 'k', space
        probs.set([0, 1, 0, 0], 0);
        probs.set([0, 0, 1, 0], 4);
        for (let t = 2; t < steps; ++t) probs[t * 4] = 1;
        return { y: { data: probs, dims: [1, steps, 4] } };
      }),
    },
  };
}

// The mean of channel `c` (0 = B, 2 = R) over the first and last valid columns of a line tensor.
function edgeMeans({ data, dims: [, , rows, stride] }, c, columns) {
  const mean = (x) => {
    let sum = 0;
    for (let y = 0; y < rows; ++y) sum += data[(c * rows + y) * stride + x];
    return sum / rows;
  };
  return [mean(0), mean(columns - 1)];
}

for (const upsideDown of [false, true]) {
  it(`crops a line ${upsideDown ? 'turned half way round when the classifier says so' : 'as it stands'}`, async () => {
    const { models, seen } = stubModels({ x0: 60, x1: 260, y0: 90, y1: 106 }, upsideDown);
    const result = await new Ocr(models, ['o', 'k']).read(gradientImage(320, 200));
    assert.deepEqual(result.lines.map((line) => line.text), ['ok']);
    assert.equal(seen.length, 1);
    const [first, last] = edgeMeans(seen[0], 2, 100);
    assert.ok(upsideDown ? first > last : first < last, `red from ${first} to ${last}`);
  });
}

it('reads a column top to bottom, turned a quarter', async () => {
  const { models, seen } = stubModels({ x0: 150, x1: 166, y0: 20, y1: 180 }, false);
  await new Ocr(models, ['o', 'k']).read(gradientImage(320, 200));
  const [first, last] = edgeMeans(seen[0], 0, 100);  // blue rises downwards in the image
  assert.ok(first < last, `blue from ${first} to ${last} along the crop`);
  assert.equal(seen[0].dims[2], 48);
});

it('rejects images that are not RGBA pixels, naming what is wrong', async () => {
  const ocr = new Ocr(stubModels({ x0: 0, x1: 1, y0: 0, y1: 1 }, false).models, ['o', 'k']);
  await assert.rejects(ocr.read({ data: new Uint8Array(10), width: 2, height: 2 }), /must be 16 RGBA bytes .*got 10/);
  await assert.rejects(ocr.read({ data: new Float32Array(16), width: 2, height: 2 }), /RGBA bytes/);
  await assert.rejects(ocr.read(null), /ImageData or \{ data, width, height \}/);
  await assert.rejects(ocr.read({ data: new Uint8Array(0), width: 0, height: 0 }), /positive integer sizes/);
});

it('checks its options; an option given as undefined keeps its default', () => {
  const { models } = stubModels({ x0: 0, x1: 1, y0: 0, y1: 1 }, false);
  assert.throws(() => new Ocr(models, ['o'], { batch: 0 }), /batch must be a positive integer, got 0/);
  assert.throws(() => new Ocr(models, ['o'], { maxSide: 10 }), /maxSide must be an integer of at least 32/);
  assert.throws(() => new Ocr(models, ['o'], { threshold: 2 }), /threshold must be a number from 0 to 1/);
  assert.doesNotThrow(() => new Ocr(models, ['o'], { maxSide: undefined, batch: undefined, threshold: undefined }));
});
