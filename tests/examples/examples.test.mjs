// The example apps (examples/) as a user gets them: each copied to a fresh folder, given the
// packed tarball with `npm install`, built by its bundler (Vite, webpack, esbuild) and served
// (scripts/serve-example.mjs) to Debian's Chromium, or run by Node. Each runs MobileNetV2
// and converts its ONNX export in the page; both must match the native CLI. The browser apps
// also read a line of text they draw, with tessera/ocr.
// - Cross-origin isolated, under the strict CSP: the threads build, on the machine's cores,
//   with no CSP violation; download progress in order, ending at each file's size.
// - Not isolated: the single-threaded build.
// - A second visit loads the cached model: the server sees no second request for it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';

import { REPO, relativeError, runTessera } from '../crosscheck/engines.mjs';
import { launchChromium } from '../support/chromium.mjs';
import { appDir } from '../wasm/package.mjs';
import { exampleModels, exampleServer } from '../../scripts/serve-example.mjs';
import { listen } from '../../scripts/static-server.mjs';

const MODEL = 'mobilenetv2_b1';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-examples-'));
const models = exampleModels();
const modelJson = JSON.parse(fs.readFileSync(path.join(models, `${MODEL}.json`), 'utf8'));
const [{ name: inputName, shape }] = modelJson.inputs;
// The examples' input: sin(i / 100), in float32.
const image = Float32Array.from({ length: shape.reduce((a, b) => a * b) }, (_, i) => Math.sin(i / 100));
const native = runTessera(path.join(models, `${MODEL}.json`), inputName, image).logits.data;

let browser;
const servers = [];
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  for (const server of servers) server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Copies example `name` to a fresh folder, installs the packed tarball into it and builds it. */
function buildExample(name) {
  const dir = path.join(work, name);
  fs.cpSync(path.join(REPO, 'examples', name), dir, { recursive: true });
  const tarball = fs.readdirSync(appDir()).find((file) => /^tessera-.*\.tgz$/.test(file));
  const npm = (...args) => execFileSync('npm', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  npm('install', '--no-audit', '--no-fund', path.join(appDir(), tarball));
  if (name !== 'node') npm('run', 'build');
  return dir;
}

/** Opens the built app in `context`; resolves with its result and the console's CSP complaints. */
async function visit(context, origin) {
  const page = await context.newPage();
  const violations = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => console.error('page error:', error));
  const response = await page.goto(`${origin}/`);
  const result = await page.evaluate(() => window.tesseraExample);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const appViolations = [...violations];
  // An inline script runs unless a CSP is in force.
  await page.addScriptTag({ content: 'window.inlineScriptRan = true;' }).catch(() => {});
  const cspEnforced = await page.evaluate(() => window.inlineScriptRan !== true);
  await page.close();
  return { result, violations: appViolations, cores, cspEnforced, csp: response.headers()['content-security-policy'] };
}

async function serve(dist, headers) {
  const server = exampleServer(dist, headers);
  servers.push(server);
  return { server, origin: await listen(server) };
}

function assertOutputs(result) {
  assert.ok(relativeError(result.logits, native) <= 1e-5, `logits differ from the native CLI's`);
  assert.ok(relativeError(result.onnxLogits, native) <= 1e-5, `the ONNX-converted model's logits differ`);
}

// Each file's events: loaded rises to the file's size, total constant; the JSON before the weights.
function assertProgress(progress, { cached }) {
  assert.deepEqual([...new Set(progress.map((event) => event.file))], ['json', 'weights']);
  for (const file of ['json', 'weights']) {
    const events = progress.filter((event) => event.file === file);
    const size = fs.statSync(path.join(models, `${MODEL}.${file === 'json' ? 'json' : 'bin'}`)).size;
    assert.ok(events.every((event) => event.total === size && event.cached === cached), JSON.stringify(events[0]));
    assert.ok(events.every((event, i) => i === 0 || event.loaded > events[i - 1].loaded), `${file}: loaded must rise`);
    assert.equal(events.at(-1).loaded, size);
  }
  assert.ok(progress.filter((event) => event.file === 'weights').length > 1, 'the weights arrive in chunks');
}

for (const name of ['vite', 'webpack', 'esbuild']) {
  it(`${name}: the app built from the tarball runs threads under the strict CSP, single without isolation`, async () => {
    const dist = path.join(buildExample(name), 'dist');

    const isolated = await serve(dist, { isolated: true, csp: true });
    const context = await browser.newContext();
    const first = await visit(context, isolated.origin);
    assert.equal(first.result.error, undefined, first.result.error);
    assert.match(first.csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.equal(first.cspEnforced, true, 'the CSP is enforced');
    assert.deepEqual(first.violations, []);
    assert.equal(first.result.build, 'threads');
    assert.equal(first.result.threads, Math.min(first.cores, 16));
    assert.ok(first.result.threads >= 2);
    assertOutputs(first.result);
    assertProgress(first.result.progress, { cached: false });
    assert.deepEqual(first.result.text, ['Tessera reads this line']);

    if (name === 'vite') {  // the cache: a second visit downloads nothing
      const second = await visit(context, isolated.origin);
      assert.equal(second.result.error, undefined, second.result.error);
      for (const file of [`${MODEL}.json`, `${MODEL}.bin`]) {
        assert.equal(isolated.server.requests.get(`/models/${file}`), 1, `${file} was requested again`);
      }
      assertProgress(second.result.progress, { cached: true });
      assertOutputs(second.result);
    }
    await context.close();

    const plain = await serve(dist, { isolated: false });
    const plainContext = await browser.newContext();
    const single = await visit(plainContext, plain.origin);
    assert.equal(single.result.error, undefined, single.result.error);
    assert.equal(single.result.build, 'single');
    assert.equal(single.result.threads, 1);
    assertOutputs(single.result);

    if (name === 'esbuild') {  // without the copied files: an error that says what to do
      fs.rmSync(path.join(dist, 'tessera'), { recursive: true });
      const missing = await visit(plainContext, plain.origin);
      assert.match(missing.result.error, /worker script \(tessera-host\.mjs\) did not load.*assetsUrl/);
    }
    await plainContext.close();
  });
}

it('node: the script run from the tarball matches the native CLI', () => {
  const dir = buildExample('node');
  const result = JSON.parse(execFileSync(process.execPath, ['main.mjs', models], { cwd: dir, encoding: 'utf8' }));
  assert.equal(result.build, 'threads');
  assert.equal(result.threads, Math.min(os.availableParallelism(), 16));
  assertOutputs(result);
});
