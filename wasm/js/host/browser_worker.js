// The host worker in browsers (a module Worker): loads the module from the package's dist/.
import { serve } from './serve.js';

async function loadModule(flavour, threads) {
  const script = new URL(`../../dist/tessera-${flavour}.js`, import.meta.url).href;
  await import(script);  // a classic script: it defines globalThis.createTesseraModule
  return globalThis.createTesseraModule({
    pthreadPoolSize: threads,
    locateFile: (file) => new URL(`../../dist/${file}`, import.meta.url).href,
    mainScriptUrlOrBlob: script,  // what the pthread workers load
  });
}

serve({ post: (message, transfer) => self.postMessage(message, transfer),
        listen: (handler) => self.addEventListener('message', (event) => handler(event.data)) }, loadModule);
