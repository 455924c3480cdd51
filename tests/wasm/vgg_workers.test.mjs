// VGG-16 (528 MB of weights) over wasm workers of 256 MiB each, in Node and in Chromium: the
// planner splits its 392 MiB classifier layer into column pieces, each worker loads only its
// stage's weights (Node reads them from the file, the page by HTTP range requests) into a
// WebAssembly memory capped at 256 MiB, and the logits are bitwise those of one engine holding
// the whole model.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, it } from 'node:test';
import { pathToFileURL } from 'node:url';

import { createStaticServer, listen } from '../../scripts/static-server.mjs';
import { ZOO } from '../crosscheck/engines.mjs';
import { launchChromium } from '../support/chromium.mjs';
import { appDir, importFromApp } from './package.mjs';

const { createEngine } = await importFromApp('tessera');

const MIB = 2 ** 20;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-vgg-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
execFileSync(ZOO, ['vgg16', '-o', dir]);
const modelUrl = pathToFileURL(path.join(dir, 'vgg16_b1.json'));
const image = new Float32Array(3 * 224 * 224).map((_, i) => Math.sin(i * 0.01));
const options = { workers: 8, workerMemory: '256MiB' };

let expected;
before(async () => {
  const engine = await createEngine({ threads: 2 });
  const model = await engine.loadModel(modelUrl);
  expected = Array.from((await model.run({ image })).logits.data);
  await engine.dispose();
});

// What every placement of VGG-16 over these workers must show.
function checkPlacement(placement) {
  assert.ok(placement.splitNodes >= 1, 'the 392 MiB classifier layer is split');
  // A worker holds its stage's weights twice (loaded and packed): at least 5 stages.
  assert.ok(placement.stages.length >= 5, `${placement.stages.length} stages`);
  for (const stage of placement.stages) assert.ok(stage.memoryBytes <= 256 * MIB, JSON.stringify(stage));
}

// Each worker's WebAssembly memory, capped at the worker's.
function checkMemory(usage) {
  assert.ok(usage.length >= 5, `${usage.length} workers`);
  for (const [s, { wasmBytes }] of usage.entries()) assert.ok(wasmBytes <= 256 * MIB, `worker ${s}: ${wasmBytes} bytes`);
}

it('Node: VGG-16 over workers of 256 MiB gives one engine\'s logits bit for bit', async () => {
  const engine = await createEngine({ threads: 2 });
  const model = await engine.loadModel(modelUrl, options);
  checkPlacement(model.placement);
  const { logits } = await model.run({ image });
  assert.deepEqual(Array.from(logits.data), expected);
  checkMemory(await model.memoryUsage());
  await engine.dispose();
});

it('Chromium: VGG-16 over workers of 256 MiB, weights by range requests, gives the same logits', async () => {
  const page = `<!doctype html>
<script type="importmap">
{ "imports": { "tessera": "/node_modules/tessera/wasm/js/index.js",
               "wasm-feature-detect": "/node_modules/wasm-feature-detect/dist/esm/index.js" } }
</script>
<script type="module">
import { createEngine } from 'tessera';
window.result = (async () => {
  const engine = await createEngine({ threads: 2 });
  const model = await engine.loadModel(new URL('/models/vgg16_b1.json', location.href), ${JSON.stringify(options)});
  const image = new Float32Array(3 * 224 * 224).map((_, i) => Math.sin(i * 0.01));
  const { logits } = await model.run({ image });
  const result = { placement: model.placement, logits: Array.from(logits.data), memory: await model.memoryUsage() };
  await engine.dispose();
  return result;
})().catch((error) => ({ error: String(error?.stack ?? error) }));
</script>`;
  const pageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-vgg-page-'));
  process.on('exit', () => fs.rmSync(pageDir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(pageDir, 'index.html'), page);
  const server = createStaticServer([['/models/', dir], ['/node_modules/', path.join(appDir(), 'node_modules')],
    ['/', pageDir]]);
  const origin = await listen(server);
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    await tab.goto(`${origin}/`);
    const result = await tab.evaluate(() => window.result);
    assert.equal(result.error, undefined, result.error);
    checkPlacement(result.placement);
    assert.deepEqual(result.logits, expected);
    checkMemory(result.memory);
    assert.equal(server.requests.get('/models/vgg16_b1.bin') > 4, true, 'the weights came in ranges');
  } finally {
    await browser.close();
    server.close();
  }
});
