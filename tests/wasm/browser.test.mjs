// The installed package in Debian's Chromium (driven by playwright-core): a page imports
// 'tessera' through an import map, as plain ES modules. Cross-origin isolated, it runs the
// threads build in a Worker with two threads, matches the native CLI, and its main thread
// keeps ticking during inference; not isolated, it falls back to the single-threaded build
// with a warning and computes the same outputs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';

import { relativeError, runTessera } from '../crosscheck/engines.mjs';
import { createStaticServer, listen } from '../../scripts/static-server.mjs';
import { launchChromium } from '../support/chromium.mjs';
import { zooInput, zooModel } from './models.mjs';
import { appDir } from './package.mjs';

const zoo = zooModel('mobilenetv2_b1');
const input = zooInput(zoo, 41).data;

const page = (engineOptions) => `<!doctype html>
<script type="importmap">
{ "imports": { "tessera": "/node_modules/tessera/wasm/js/index.js",
               "wasm-feature-detect": "/node_modules/wasm-feature-detect/dist/esm/index.js" } }
</script>
<script type="module">
import { createEngine } from 'tessera';
const warnings = [];
const warn = console.warn;
console.warn = (...args) => { warnings.push(args.join(' ')); warn(...args); };
window.result = (async () => {
  const engine = await createEngine(${JSON.stringify({ threads: 2, ...engineOptions })});
  const model = await engine.loadModel(new URL('/models/mobilenetv2_b1.json', location.href));
  const image = new Float32Array(await (await fetch('/input.bin')).arrayBuffer());
  // The main thread's timer keeps firing while the worker runs the model.
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    longestGap = Math.max(longestGap, performance.now() - last);
    last = performance.now();
  }, 5);
  const start = performance.now();
  let outputs;
  for (let i = 0; i < 30; ++i) outputs = await model.run({ image }, { trace: i === 29 });
  const runMs = performance.now() - start;
  clearInterval(ticker);
  const threadsInTrace = new Set(model.trace().traceEvents.filter((e) => e.ph === 'X').map((e) => e.tid)).size;
  const result = { features: engine.features, threads: engine.threads, crossOriginIsolated, warnings,
                   logits: Array.from(outputs.logits.data), runMs, longestGap, threadsInTrace };
  await engine.dispose();
  return result;
})().catch((error) => ({ error: String(error?.stack ?? error) }));
</script>`;

// A server for the page with these engine options: the page and its input from a folder of
// their own, the installed package's files and the model beside them; cross-origin isolated
// (COOP + COEP) or plain.
function serve(isolated, engineOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-page-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'index.html'), page(engineOptions));
  fs.writeFileSync(path.join(dir, 'input.bin'), Buffer.from(input.buffer));
  const routes = [['/models/', path.dirname(zoo.json)], ['/node_modules/', path.join(appDir(), 'node_modules')],
    ['/', dir]];
  const server = createStaticServer(routes, { isolated });
  return listen(server).then(() => server);
}

let browser;
const servers = [];
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  for (const server of servers) server.close();
});

async function openPage(isolated, engineOptions) {
  const server = await serve(isolated, engineOptions);
  servers.push(server);
  const tab = await browser.newPage();
  tab.on('pageerror', (error) => console.error('page error:', error));
  await tab.goto(`http://127.0.0.1:${server.address().port}/`);
  const result = await tab.evaluate(() => window.result);
  await tab.close();
  assert.equal(result.error, undefined, result.error);
  return result;
}

const native = runTessera(zoo.json, 'image', input).logits.data;

it('an isolated page runs the threads build in a Worker on 2 threads, without blocking its main thread', async () => {
  const result = await openPage(true);
  assert.equal(result.crossOriginIsolated, true);
  assert.deepEqual(result.features, { simd: true, threads: true, crossOriginIsolated: true, build: 'threads' });
  assert.equal(result.threads, 2);
  assert.equal(result.threadsInTrace, 2);
  assert.deepEqual(result.warnings, []);
  assert.ok(relativeError(result.logits, native) <= 1e-5);
  // 30 runs take several hundred ms; a 5 ms timer never waits 100 ms unless the thread blocks.
  assert.ok(result.runMs > 200, `30 runs took only ${result.runMs.toFixed(0)} ms`);
  assert.ok(result.longestGap < 100,
    `the main thread stalled ${result.longestGap.toFixed(0)} ms during ${result.runMs.toFixed(0)} ms of runs`);
});

it('a page that is not isolated falls back to the single-threaded build with a warning', async () => {
  const result = await openPage(false);
  assert.equal(result.crossOriginIsolated, false);
  assert.deepEqual(result.features, { simd: true, threads: false, crossOriginIsolated: false, build: 'single' });
  assert.equal(result.threads, 1);
  assert.equal(result.warnings.length, 1);
  assert.match(result.warnings[0], /not cross-origin isolated.*single-threaded build/);
  assert.ok(relativeError(result.logits, native) <= 1e-5);
});

it('assetsUrl on another origin (a CDN) serves the WebAssembly files; the workers start from the page\'s origin', async () => {
  const cdn = createStaticServer([['/tessera/', path.join(appDir(), 'node_modules/tessera/wasm/dist')]], { cors: true });
  servers.push(cdn);
  const assetsUrl = `${await listen(cdn)}/tessera/`;
  const result = await openPage(true, { assetsUrl });
  assert.equal(result.features.build, 'threads');
  assert.ok(relativeError(result.logits, native) <= 1e-5);
  assert.deepEqual([...cdn.requests.keys()].sort(), ['/tessera/tessera-threads.js', '/tessera/tessera-threads.wasm']);
});
