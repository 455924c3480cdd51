// The host worker in Node (worker_threads): loads the module from the package's dist/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

import { openFile } from '../platform/node.js';
import { memoryOptions } from './core_engine.js';
import { serve } from './serve.js';

const require = createRequire(import.meta.url);

function loadModule({ flavour, threads, maximumMemory }) {
  const script = require.resolve(`../../dist/tessera-${flavour}.js`);
  const createTesseraModule = require(script);
  // Node's fetch cannot read file paths: hand the loader the binary itself.
  const wasmBinary = readFileSync(script.replace(/\.js$/, '.wasm'));
  return createTesseraModule({ pthreadPoolSize: threads, wasmBinary, ...memoryOptions(maximumMemory) });
}

serve({ post: (message, transfer) => parentPort.postMessage(message, transfer),
        listen: (handler) => parentPort.on('message', handler) },
      loadModule, openFile);
