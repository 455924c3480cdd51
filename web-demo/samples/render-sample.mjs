// Renders the OCR demo's bundled sample (text-sample.png): printed lines whose words the
// browser tests look for. Run once with Debian's Chromium; the PNG is committed.
//   node web-demo/samples/render-sample.mjs
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const SAMPLE_LINES = ['Tessera reads this page', 'Invoice 2026-11-22', 'Total: 42.50 EUR', 'Hello World'];

const html = `<body style="margin:0;background:#fff">
<div style="padding:36px 48px;font:600 40px 'DejaVu Sans',sans-serif;color:#111;line-height:1.9">
${SAMPLE_LINES.map((line) => `<div>${line}</div>`).join('')}</div></body>`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 720, height: 400 } });
  await page.setContent(html);
  await page.screenshot({ path: new URL('text-sample.png', import.meta.url).pathname });
  await browser.close();
}
