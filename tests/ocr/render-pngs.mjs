// Renders the OCR test images of renders.js in Debian's Chromium and writes DIR/<name>.png with
// DIR/<name>.json ({ "lines": [...] }, the ground truth).
//   node tests/ocr/render-pngs.mjs DIR
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { launchChromium } from '../support/chromium.mjs';

const RENDERS = new URL('renders.js', import.meta.url);

// Serves a blank page and renders.js: a module import needs an http origin, not about:blank.
function serve() {
  const server = http.createServer((request, response) => {
    if (request.url === '/renders.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(fs.readFileSync(RENDERS));
    } else {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><body></body>');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Renders every image into `dir`; resolves with [{ name, png, lines, width, height }]. */
export async function renderPngs(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const server = await serve();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const rendered = await page.evaluate(async () => {
      const { RENDER_NAMES, render } = await import('/renders.js');
      const results = [];
      for (const name of RENDER_NAMES) {
        const { canvas, lines } = await render(name);
        const { width, height } = canvas;
        results.push({ name, dataUrl: canvas.toDataURL('image/png'), lines, width, height });
      }
      return results;
    });
    return rendered.map(({ name, dataUrl, lines, width, height }) => {
      const png = path.join(dir, `${name}.png`);
      fs.writeFileSync(png, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
      fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify({ lines }, null, 2)}\n`);
      return { name, png, lines, width, height };
    });
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node tests/ocr/render-pngs.mjs DIR');
    process.exit(2);
  }
  for (const { png, lines, width, height } of await renderPngs(dir)) {
    console.log(`${png}: ${width}x${height}, ${lines.length} lines`);
  }
}
