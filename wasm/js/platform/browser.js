// What the engine needs from a browser (the default condition of the package's #platform
// import): the core count and the host worker as a module Worker. No Node module is reached
// from here, so bundlers targeting browsers need no shims.
import { TesseraError } from '../errors.js';

export const defaultThreads = () => globalThis.navigator?.hardwareConcurrency;

/** SharedArrayBuffer needs a cross-origin isolated page (COOP + COEP headers). */
export const crossOriginIsolated = () => globalThis.crossOriginIsolated === true;

/**
 * The host worker's script. Written as `new Worker(new URL(literal, import.meta.url))`, the
 * form Vite and webpack follow: they bundle the script (a self-contained build of
 * host/browser_worker.js) and the assets it names. Bundlers that do not (esbuild) leave the
 * URL pointing nowhere: then `assetsUrl` names the directory holding a copy of wasm/dist/.
 * Browsers start workers only from the page's origin, so an assetsUrl on another origin (a
 * CDN) serves the WebAssembly files while the workers come from the app's build.
 */
function hostWorker(assetsUrl) {
  if (assetsUrl && assetsUrl.origin === globalThis.location?.origin) {
    return new Worker(new URL('tessera-host.mjs', assetsUrl), { type: 'module' });
  }
  return new Worker(new URL('../../dist/tessera-host.mjs', import.meta.url), { type: 'module' });
}

/** Starts the host worker; its port for the host channel. */
export function startHost({ assetsUrl }, { onMessage, onFailure }) {
  const worker = hostWorker(assetsUrl);
  let started = false;
  worker.addEventListener('message', (event) => {
    started = true;
    onMessage(event.data);
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    onFailure(started ? `the engine's worker failed: ${event.message ?? 'script error'}`
      : "the engine's worker script (tessera-host.mjs) did not load. If your bundler does not copy Tessera's " +
        'files (esbuild does not), copy node_modules/tessera/wasm/dist/ into your app and pass its URL: ' +
        'createEngine({ assetsUrl }) (README: "Use it in a web app")');
  });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    busy: () => {},
    terminate: () => worker.terminate(),
  };
}
