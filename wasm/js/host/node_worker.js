// The host worker in Node (worker_threads): loads the module from the package's dist/.
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

import { TesseraError } from '../errors.js';
import { serve } from './serve.js';

const require = createRequire(import.meta.url);

function loadModule({ flavour, threads }) {
  const script = require.resolve(`../../dist/tessera-${flavour}.js`);
  const createTesseraModule = require(script);
  // Node's fetch cannot read file paths: hand the loader the binary itself.
  const wasmBinary = readFileSync(script.replace(/\.js$/, '.wasm'));
  return createTesseraModule({ pthreadPoolSize: threads, wasmBinary });
}

// A whole file, in parts (fs reads at most 2 GiB at once); past what one instance can hold, the
// out-of-memory error without reading it.
async function readWhole(url) {
  const file = await open(new URL(url));
  try {
    const { size } = await file.stat();
    if (size > 2 ** 32 - 1) {
      throw new TesseraError(`weights ${url}: ${size} bytes are more than WebAssembly memory can hold ` +
                             '(4 GiB per instance): place the model over workers (loadModel\'s workers option)');
    }
    const bytes = new Uint8Array(size);
    for (let done = 0; done < size;) {
      const { bytesRead } = await file.read(bytes, done, Math.min(size - done, 2 ** 30), done);
      if (bytesRead === 0) throw new Error(`ends after ${done} of ${size} bytes`);
      done += bytesRead;
    }
    return bytes;
  } finally {
    await file.close();
  }
}

serve({ post: (message, transfer) => parentPort.postMessage(message, transfer),
        listen: (handler) => parentPort.on('message', handler) },
      loadModule, readWhole);
