// The demo page: one engine for the page (threads when the page is cross-origin isolated,
// else the single-threaded build), shared by the OCR and the model explorer.
import { createEngine } from 'tessera';

import { setupExplorer } from './explorer.js';
import { setupOcr } from './ocr/panel.js';

const status = document.querySelector('#status');

function showStatus(engine) {
  const { build, simd } = engine.features;
  status.dataset.threads = String(engine.threads);
  if (build === 'threads') {
    status.dataset.state = 'isolated';
    status.textContent = `Cross-origin isolated: WebAssembly threads on (${engine.threads} threads, ` +
      `SIMD ${simd ? 'on' : 'off'}).`;
  } else {
    status.dataset.state = 'single';
    status.textContent = 'This page is not cross-origin isolated, so SharedArrayBuffer is unavailable: ' +
      'running the single-threaded build. Serve it with COOP/COEP headers (npm run demo does) for threads.';
  }
}

try {
  const engine = await createEngine({ threads: Math.min(navigator.hardwareConcurrency || 2, 8) });
  showStatus(engine);
  setupExplorer(engine);
  await setupOcr(engine);
} catch (error) {
  status.dataset.state = 'failed';
  status.textContent = `The engine could not start: ${error.message}`;
  throw error;
}
