// The host worker in browsers: the entry of dist/tessera-host.mjs, which scripts/build-wasm.sh
// bundles into one self-contained module, so its URLs below are relative to dist/.
//
// Each file is named by a literal `new URL(..., import.meta.url)`, the form Vite and webpack
// copy into an app's build (renamed as they like). `?no-inline` keeps Vite from inlining the
// small ones as data: URLs, which a strict CSP refuses to start workers from. With an
// `assetsUrl`, the files come from there instead; browsers start workers only from the
// page's origin, so the pthread workers' script does so only when it is on that origin.
import { memoryOptions } from './core_engine.js';
import { serve } from './serve.js';

const kBuilds = {
  threads: {
    loader: new URL('./tessera-threads.js?no-inline', import.meta.url),
    wasm: new URL('./tessera-threads.wasm?no-inline', import.meta.url),
    worker: new URL('./tessera-threads.worker.js?no-inline', import.meta.url),
  },
  single: {
    loader: new URL('./tessera-single.js?no-inline', import.meta.url),
    wasm: new URL('./tessera-single.wasm?no-inline', import.meta.url),
  },
};

function locate(flavour, assetsUrl) {
  const bundled = kBuilds[flavour];
  if (!assetsUrl) return bundled;
  const base = new URL(assetsUrl);
  const sameOrigin = base.origin === self.location.origin;
  return {
    loader: new URL(`tessera-${flavour}.js`, base),
    wasm: new URL(`tessera-${flavour}.wasm`, base),
    worker: sameOrigin ? new URL(`tessera-${flavour}.worker.js`, base) : bundled.worker,
  };
}

async function loadModule({ flavour, threads, assetsUrl, maximumMemory }) {
  const files = locate(flavour, assetsUrl);
  try {
    // A classic script: it defines globalThis.createTesseraModule (wasm/module_global.js).
    await import(/* webpackIgnore: true */ /* @vite-ignore */ files.loader.href);
  } catch (error) {
    throw new Error(`cannot load Tessera's WebAssembly loader ${files.loader.href} (${error.message}). ` +
                    'If your bundler does not copy its files (esbuild does not), copy ' +
                    'node_modules/tessera/wasm/dist/ into your app and pass createEngine({ assetsUrl })');
  }
  const byName = { [`tessera-${flavour}.wasm`]: files.wasm, [`tessera-${flavour}.worker.js`]: files.worker };
  return globalThis.createTesseraModule({
    pthreadPoolSize: threads,
    locateFile: (file) => (byName[file] ?? new URL(file, files.loader)).href,
    mainScriptUrlOrBlob: files.loader.href,  // what the pthread workers load
    ...memoryOptions(maximumMemory),
  });
}

serve({ post: (message, transfer) => self.postMessage(message, transfer),
        listen: (handler) => self.addEventListener('message', (event) => handler(event.data)) }, loadModule);
