// A YOLOv8-style detector as ultralytics exports it (torch.onnx.export, opset 17, dynamic
// height/width): Conv + SiLU (Sigmoid then Mul) stages, a C2f block (Split ... Concat), a
// nearest Resize + Concat neck, a Detect head at strides 16 and 32 with DFL, and the anchor
// grid of make_anchors() computed at run time from each feature map's shape.
import { FLOAT, OnnxGraph, f32, mulberry32, uniform } from './onnx_builder.mjs';

const kRegMax = 8;  // DFL bins per box side (ultralytics uses 16; 8 keeps the model small)
const kStrides = [16, 32];

const dotted = (path) => path.slice(1).replaceAll('/', '.');

/**
 * A small detector with seeded random weights; output0 is [1, 4 + classes, anchors]
 * (cx, cy, w, h in input pixels, then class probabilities).
 * @returns {{ bytes: Uint8Array, inputs: {name: string, type: string, dims: (number|string)[]}[] }}
 */
export function yoloLike({ seed = 1, classes = 4 } = {}) {
  const g = new OnnxGraph('yolo_like');
  const random = mulberry32(seed);

  // A plain nn.Conv2d ("same" padding), He-uniform weights so activations keep their scale.
  const conv2d = (path, x, cin, cout, k = 1, stride = 1) => {
    const scale = Math.sqrt(6 / (cin * k * k));
    const w = g.initializer(`${dotted(path)}.weight`, uniform(random, cout * cin * k * k, scale), [cout, cin, k, k]);
    const b = g.initializer(`${dotted(path)}.bias`, uniform(random, cout, 0.1), [cout]);
    const pad = (k - 1) / 2;
    const attrs = { dilations: [1, 1], group: 1, kernel_shape: [k, k], pads: [pad, pad, pad, pad], strides: [stride, stride] };
    return g.scope(path).node('Conv', [x, w, b], attrs);
  };
  // ultralytics Conv: conv (BatchNorm fused into the bias at export) then SiLU, which torch
  // writes as x * Sigmoid(x).
  const conv = (path, x, cin, cout, k = 1, stride = 1) => {
    const y = conv2d(`${path}/conv`, x, cin, cout, k, stride);
    const act = g.scope(`${path}/act`);
    return act.node('Mul', [y, act.node('Sigmoid', [y])]);
  };
  // C2f with one shortcut Bottleneck: cv1 -> chunk(2) -> m(y[-1]) -> cat -> cv2.
  const c2f = (path, x, channels) => {
    const s = g.scope(path);
    const half = channels / 2;
    const [a, b] = s.node('Split', [conv(`${path}/cv1`, x, channels, channels), s.ints([half, half])], { axis: 1 }, { outputs: 2 });
    const inner = conv(`${path}/m.0/cv2`, conv(`${path}/m.0/cv1`, b, half, half, 3), half, half, 3);
    const m = g.scope(`${path}/m.0`).node('Add', [b, inner]);
    return conv(`${path}/cv2`, s.node('Concat', [a, b, m], { axis: 1 }), 3 * half, channels);
  };

  const images = g.input('images', FLOAT, [1, 3, 'height', 'width']);
  // Backbone: strides 2, 4 (C2f), 8, 16 (P4), 32 (P5).
  let x = conv('/model.0', images, 3, 8, 3, 2);
  x = c2f('/model.2', conv('/model.1', x, 8, 16, 3, 2), 16);
  const p4 = conv('/model.4', conv('/model.3', x, 16, 32, 3, 2), 32, 32, 3, 2);
  const p5 = conv('/model.5', p4, 32, 64, 3, 2);
  // Neck: upsample P5 (Resize, nearest, by scales) onto P4, then back down onto P5.
  const up = g.scope('/model.6');
  const resizeAttrs = { coordinate_transformation_mode: 'asymmetric', cubic_coeff_a: -0.75, mode: 'nearest', nearest_mode: 'floor' };
  const upsampled = up.node('Resize', [p5, '', up.constant(f32(1, 1, 2, 2), [4])], resizeAttrs);
  const n4 = conv('/model.8', g.scope('/model.7').node('Concat', [upsampled, p4], { axis: 1 }), 96, 32);
  const down = conv('/model.9', n4, 32, 32, 3, 2);
  const n5 = conv('/model.11', g.scope('/model.10').node('Concat', [down, p5], { axis: 1 }), 96, 64);

  // Detect: per level a box branch (4 * reg_max DFL logits) and a class branch, concatenated.
  const path = '/model.12';
  const d = g.scope(path);
  const outputs = 4 * kRegMax + classes;
  const feats = [[n4, 32], [n5, 64]].map(([feat, cin], i) => {
    const box = conv2d(`${path}/cv2.${i}/cv2.${i}.1`, conv(`${path}/cv2.${i}/cv2.${i}.0`, feat, cin, 16, 3), 16, 4 * kRegMax);
    const cls = conv2d(`${path}/cv3.${i}/cv3.${i}.1`, conv(`${path}/cv3.${i}/cv3.${i}.0`, feat, cin, 16, 3), 16, classes);
    return d.node('Concat', [box, cls], { axis: 1 });
  });
  // x_cat = cat([xi.view(shape[0], no, -1) for xi in x], 2)
  const batch = d.dim(feats[0], 0);
  const flat = feats.map((f) => d.node('Reshape', [f, d.shape([batch, outputs, -1])]));
  const [boxLogits, clsLogits] = d.node('Split', [d.node('Concat', flat, { axis: 2 }), d.ints([4 * kRegMax, classes])], { axis: 1 }, { outputs: 2 });

  // DFL: view(b, 4, reg_max, a).transpose(2, 1).softmax(1) -> 1x1 conv with arange weights -> view(b, 4, a).
  const dfl = g.scope(`${path}/dfl`);
  const anchors = dfl.dim(boxLogits, 2);
  const bins = dfl.node('Reshape', [boxLogits, dfl.shape([batch, 4, kRegMax, anchors])]);
  const probs = dfl.node('Softmax', [dfl.node('Transpose', [bins], { perm: [0, 2, 1, 3] })], { axis: 1 });
  const arange = g.initializer(`${dotted(path)}.dfl.conv.weight`, Float32Array.from({ length: kRegMax }, (_, i) => i), [1, kRegMax, 1, 1]);
  const expected = g.scope(`${path}/dfl/conv`).node('Conv', [probs, arange], { dilations: [1, 1], group: 1, kernel_shape: [1, 1], pads: [0, 0, 0, 0], strides: [1, 1] });
  const distances = dfl.node('Reshape', [expected, dfl.shape([batch, 4, anchors])]);

  // make_anchors(feats, strides, 0.5), then .transpose(0, 1): points [2, A], strides [1, A].
  const grid = feats.map((feat, i) => {
    const h = d.dim(feat, 2);
    const w = d.dim(feat, 3);
    const centers = (n) => d.node('Add', [d.node('Range', [d.float(0), d.node('Cast', [n], { to: FLOAT }), d.float(1)]), d.float(0.5)]);
    // meshgrid(sy, sx, indexing="ij"): view as a column / a row, then Expand to [h, w].
    const size = d.shape([h, w]);
    const sy = d.node('Expand', [d.node('Reshape', [centers(h), d.ints([-1, 1])]), size]);
    const sx = d.node('Expand', [d.node('Reshape', [centers(w), d.ints([1, -1])]), size]);
    const stacked = d.node('Concat', [d.node('Unsqueeze', [sx, d.ints([-1])]), d.node('Unsqueeze', [sy, d.ints([-1])])], { axis: -1 });
    const points = d.node('Reshape', [stacked, d.ints([-1, 2])]);
    // torch.full((h * w, 1), stride)
    const stride = d.node('ConstantOfShape', [d.shape([d.node('Mul', [h, w]), 1])], { value: { data: f32(kStrides[i]), dims: [1] } });
    return [points, stride];
  });
  const anchorPoints = d.node('Unsqueeze', [d.node('Transpose', [d.node('Concat', grid.map(([p]) => p), { axis: 0 })], { perm: [1, 0] }), d.ints([0])]);
  const strides = d.node('Transpose', [d.node('Concat', grid.map(([, s]) => s), { axis: 0 })], { perm: [1, 0] });

  // dist2bbox(xywh=True) * strides, then cat with the class probabilities.
  const [lt, rb] = d.node('Split', [distances, d.ints([2, 2])], { axis: 1 }, { outputs: 2 });
  const x1y1 = d.node('Sub', [anchorPoints, lt]);
  const x2y2 = d.node('Add', [anchorPoints, rb]);
  const center = d.node('Div', [d.node('Add', [x1y1, x2y2]), d.float(2)]);
  const size = d.node('Sub', [x2y2, x1y1]);
  const boxes = d.node('Mul', [d.node('Concat', [center, size], { axis: 1 }), strides]);
  const output = d.node('Concat', [boxes, d.node('Sigmoid', [clsLogits])], { axis: 1 }, { outputs: ['output0'] });
  g.output(output, FLOAT, [1, 4 + classes, 'anchors']);

  return { bytes: g.toBytes(), inputs: [{ name: 'images', type: 'float32', dims: [1, 3, 'height', 'width'] }] };
}
