// Serves a built example app (examples/vite, webpack, esbuild: their dist/) on 127.0.0.1,
// with the models the examples load at /models/ (MobileNetV2 from the native tessera-zoo,
// its ONNX export and the PP-OCR models, prepared into build/examples/models on first use).
//
//   node scripts/serve-example.mjs examples/vite/dist [--port 8080] [--no-isolation] [--csp]
//   node scripts/serve-example.mjs --prepare    prepares the models only; prints their folder
// --no-isolation leaves COOP/COEP out (the single-threaded fallback); --csp adds the strict
// Content-Security-Policy.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { REPO, prepareModels } from './bench-models.mjs';
import { prepareOcrModels } from './ocr-models.mjs';
import { createStaticServer, listen } from './static-server.mjs';

const MODELS = path.join(REPO, 'build/examples/models');

/** Prepares the examples' models once; returns their folder. */
export function exampleModels() {
  prepareModels(['mobilenetv2_b1'], MODELS);
  prepareOcrModels(MODELS);
  return MODELS;
}

/** A server for the app built into `dist`, with the models at /models/. */
export function exampleServer(dist, headers) {
  return createStaticServer([['/models/', exampleModels()], ['/', path.resolve(dist)]], headers);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dist] = process.argv.slice(2);
  if (dist === '--prepare') {
    console.log(exampleModels());
    process.exit(0);
  }
  if (!dist || dist.startsWith('--')) {
    throw new Error('usage: node scripts/serve-example.mjs DIST [--port N] [--no-isolation] [--csp] | --prepare');
  }
  const portFlag = process.argv.indexOf('--port');
  const server = exampleServer(dist, { isolated: !process.argv.includes('--no-isolation'),
                                       csp: process.argv.includes('--csp') });
  console.log(`Tessera example: ${await listen(server, portFlag > 0 ? Number(process.argv[portFlag + 1]) : 8080)}/`);
}
