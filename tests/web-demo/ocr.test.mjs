// OCR on realistic images, in the demo page from the real demo server: the test renders a
// screenshot of prose, a slide, a photographed receipt and a web form in the page
// (tests/ocr/renders.js), drops each on the OCR panel as a user would, and checks that every
// line is found and at most 3 % of the characters are wrong. Then the same renders, as PNG
// files, go through tessera/ocr in Node, which must read exactly what the page read.
// Screenshots of the prose and the receipt go to $TESSERA_TEST_OUTPUT/web-demo.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';

import { PNG } from 'pngjs';

import { REPO } from '../crosscheck/engines.mjs';
import { RENDER_NAMES } from '../ocr/renders.js';
import { characterErrorRate, linesFound } from '../ocr/text_metrics.mjs';
import { launchChromium } from '../support/chromium.mjs';
import { startDemoServer, stopDemoServers } from '../support/demo_server.mjs';
import { importFromApp } from '../wasm/package.mjs';
import { prepareOcrModels } from '../../scripts/ocr-models.mjs';

const OUTPUT = path.join(process.env.TESSERA_TEST_OUTPUT ?? path.join(REPO, 'build/test-output'), 'web-demo');
const RENDERS_JS = fs.readFileSync(path.join(REPO, 'tests/ocr/renders.js'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-ocr-'));

let browser;
let page;
const pageErrors = [];
const inPage = {};  // name -> { lines (truth), read, png (path) }

before(async () => {
  fs.mkdirSync(OUTPUT, { recursive: true });
  const url = await startDemoServer();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // The renders module, served beside the page (the demo server serves the demo alone).
  await page.route('**/test/renders.js', (route) => route.fulfill({ body: RENDERS_JS, contentType: 'text/javascript' }));
  await page.goto(url);
  await settled();
});

after(async () => {
  await browser?.close();
  stopDemoServers();
  fs.rmSync(work, { recursive: true, force: true });
});

const settled = () => page.waitForFunction(
  () => ['done', 'failed'].includes(document.querySelector('#ocr-status').dataset.state), null, { timeout: 180_000 });

// Renders `name` in the page and drops it on the OCR panel as a PNG file; resolves with the
// truth, the PNG's bytes and the lines the panel lists.
async function readInPage(name) {
  const { lines, png } = await page.evaluate(async (renderName) => {
    const { render } = await import('/test/renders.js');
    const { canvas, lines: truth } = await render(renderName);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    const files = new DataTransfer();
    files.items.add(new File([blob], `${renderName}.png`, { type: 'image/png' }));
    document.querySelector('#ocr-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true }));
    return { lines: truth, png: Array.from(new Uint8Array(await blob.arrayBuffer())) };
  }, name);
  await settled();
  assert.equal(await page.getAttribute('#ocr-status', 'data-state'), 'done', await page.textContent('#ocr-status'));
  const read = await page.$$eval('#ocr-lines li', (items) => items.map((li) => li.firstChild.textContent));
  const file = path.join(work, `${name}.png`);
  fs.writeFileSync(file, Buffer.from(png));
  return { lines, read, png: file };
}

for (const name of RENDER_NAMES) {
  it(`${name}: every line found, at most 3 % of the characters wrong`, async () => {
    const result = await readInPage(name);
    inPage[name] = result;
    if (name === 'prose' || name === 'receipt') {
      await page.locator('#ocr').screenshot({ path: path.join(OUTPUT, `ocr-${name}.png`) });
    }
    const cer = characterErrorRate(result.read, result.lines);
    assert.equal(linesFound(result.read, result.lines), result.lines.length, `read ${JSON.stringify(result.read)}`);
    assert.ok(cer <= 0.03, `${(cer * 100).toFixed(2)} % of characters wrong: ${JSON.stringify(result.read)}`);
    assert.match(await page.textContent('#ocr-specializations'), /^recogniser: \d+ widths? compiled, \d+ reused$/);
  });
}

it('tessera/ocr in Node reads the same PNGs exactly as the page did', async () => {
  const { createEngine } = await importFromApp('tessera');
  const { createOcr } = await importFromApp('tessera/ocr');
  const engine = await createEngine({ threads: 2 });
  try {
    const ocr = await createOcr(engine, prepareOcrModels(path.join(REPO, 'build/ocr-models')));
    for (const name of RENDER_NAMES) {
      assert.ok(inPage[name], `${name} was not read in the page`);
      const image = PNG.sync.read(fs.readFileSync(inPage[name].png));
      const { lines } = await ocr.read(image);
      assert.deepEqual(lines.map((line) => line.text), inPage[name].read, name);
    }
  } finally {
    await engine.dispose();
  }
});

it('raised no uncaught errors in the page', () => assert.deepEqual(pageErrors, []));
