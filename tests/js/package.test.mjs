// The npm package: what it ships and declares, and entries whose browser builds reach no
// Node module (only the "node" condition, the host's Node worker and cli.js use Node).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';

import { build } from 'esbuild';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

it('declares the engine, converter and OCR exports with their types, the tessera bin and Node >= 20', () => {
  assert.equal(pkg.name, 'tessera');
  assert.equal(pkg.type, 'module');
  assert.deepEqual(pkg.exports['.'], {
    types: './wasm/js/index.d.ts',
    node: './wasm/js/index.node.js',
    default: './wasm/js/index.js',
  });
  assert.deepEqual(pkg.exports['./convert'], {
    types: './wasm/js/convert/index.d.ts',
    default: './wasm/js/convert/index.js',
  });
  assert.deepEqual(pkg.exports['./ocr'], { types: './wasm/js/ocr/index.d.ts', default: './wasm/js/ocr/index.js' });
  assert.deepEqual(pkg.bin, { tessera: 'wasm/js/cli.js' });
  assert.equal(pkg.engines.node, '>=20');
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), ['onnx-proto', 'wasm-feature-detect']);
});

it('packs the engine, the converter and the CLI', () => {
  // --ignore-scripts: the prepack wasm build is not this test's business.
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = JSON.parse(r.stdout)[0].files.map((f) => f.path);
  const expected = ['package.json', 'wasm/js/index.js', 'wasm/js/index.node.js', 'wasm/js/index.d.ts',
    'wasm/js/engine.js', 'wasm/js/cli.js', 'wasm/js/host/browser_worker.js'];
  expected.push('wasm/js/convert/index.js', 'wasm/js/convert/index.d.ts', 'wasm/js/convert/export.js', 'wasm/js/convert/op_schema.js');
  for (const f of expected) assert.ok(files.includes(f), `${f} is not packed`);
  assert.ok(!files.some((f) => f.startsWith('tests/') || f.startsWith('node_modules/')));
});

it('keeps Node-only APIs out of the conversion core', () => {
  const dir = new URL('wasm/js/convert/', root);
  for (const file of readdirSync(dir)) {
    const text = readFileSync(new URL(file, dir), 'utf8');
    assert.doesNotMatch(text, /from 'node:|require\(|\bprocess\.|\bBuffer\b|\b__dirname\b/, file);
  }
});

// A browser bundle fails to build when it reaches a node: module: esbuild, like Vite and
// webpack, has no browser stand-in for them.
for (const specifier of ['tessera', 'tessera/convert', 'tessera/ocr']) {
  it(`${specifier}: a browser bundle reaches no Node module; a Node bundle takes the node condition`, async () => {
    const bundle = (platform) => build({
      stdin: { contents: `export * from '${specifier}';`, resolveDir: root.pathname },
      bundle: true, platform, format: 'esm', write: false, logLevel: 'silent', metafile: true,
    });
    const browser = await bundle('browser');
    const inputs = Object.keys(browser.metafile.inputs);
    assert.ok(!inputs.some((file) => /platform\/node\.js|node_worker\.js/.test(file)), inputs.join('\n'));
    if (specifier === 'tessera') {
      const node = await bundle('node');
      assert.ok(Object.keys(node.metafile.inputs).some((file) => file.endsWith('platform/node.js')));
    }
  });
}
