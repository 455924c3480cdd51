// The npm package: what it ships and declares, and a conversion core free of Node-only APIs
// (it must run in browsers; only cli.js does file I/O).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

it('declares the converter export, the tessera bin and Node >= 20', () => {
  assert.equal(pkg.name, 'tessera');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.exports['./convert'], './wasm/js/convert/index.js');
  assert.deepEqual(pkg.bin, { tessera: 'wasm/js/cli.js' });
  assert.equal(pkg.engines.node, '>=20');
  assert.deepEqual(Object.keys(pkg.dependencies), ['onnx-proto']);
});

it('packs the converter and the CLI', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = JSON.parse(r.stdout)[0].files.map((f) => f.path);
  for (const f of ['package.json', 'wasm/js/cli.js', 'wasm/js/convert/index.js', 'wasm/js/convert/export.js']) {
    assert.ok(files.includes(f), `${f} is not packed`);
  }
  assert.ok(!files.some((f) => f.startsWith('tests/') || f.startsWith('node_modules/')));
});

it('keeps Node-only APIs out of the conversion core', () => {
  const dir = new URL('wasm/js/convert/', root);
  for (const file of readdirSync(dir)) {
    const text = readFileSync(new URL(file, dir), 'utf8');
    assert.doesNotMatch(text, /from 'node:|require\(|\bprocess\.|\bBuffer\b|\b__dirname\b/, file);
  }
});
