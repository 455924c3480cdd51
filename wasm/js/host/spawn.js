// Starts the host worker that owns the WebAssembly module (worker_threads in Node, a module
// Worker in browsers) and gives it a promise-based call interface.
import { TesseraError } from '../errors.js';

export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

export class HostChannel {
  #worker;
  #pending = new Map();  // id -> { resolve, reject }
  #nextId = 1;
  #failure = null;       // set once the worker has died

  static async start() {
    if (isNode) {
      const { Worker } = await import('node:worker_threads');
      return new HostChannel(new Worker(new URL('./node_worker.js', import.meta.url)), true);
    }
    return new HostChannel(new Worker(new URL('./browser_worker.js', import.meta.url), { type: 'module' }), false);
  }

  constructor(worker, node) {
    this.#worker = worker;
    const onMessage = (message) => this.#settle(message);
    const onError = (error) => this.#die(`the engine's worker failed: ${error?.message ?? error}`);
    if (node) {
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', (code) => this.#die(`the engine's worker stopped (exit code ${code})`));
      worker.unref();  // an idle engine does not keep Node running
    } else {
      worker.addEventListener('message', (event) => onMessage(event.data));
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        onError(event.message ?? 'script error');
      });
    }
    this.node = node;
  }

  /** Calls `method` in the worker; resolves with its result, rejects with its error. */
  call(method, args = {}, transfer = []) {
    if (this.#failure) return Promise.reject(new TesseraError(this.#failure));
    const id = this.#nextId++;
    try {
      this.#worker.postMessage({ id, method, args }, transfer);
    } catch (error) {
      return Promise.reject(error);  // e.g. a detached buffer: nothing was sent
    }
    if (this.node && this.#pending.size === 0) this.#worker.ref();  // a call in flight keeps Node running
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  /** Stops the worker; later calls reject. */
  terminate() {
    this.#die('the engine was disposed');
    this.#worker.terminate();
  }

  #settle({ id, result, error }) {
    const call = this.#pending.get(id);
    if (!call) return;  // its caller was already rejected: the worker died or was stopped
    this.#pending.delete(id);
    if (this.node && this.#pending.size === 0) this.#worker.unref();
    if (!error) return call.resolve(result);
    const ErrorType = error.name === 'TypeError' ? TypeError : TesseraError;
    call.reject(new ErrorType(error.message));
  }

  #die(reason) {
    if (this.#failure) return;
    this.#failure = reason;
    for (const { reject } of this.#pending.values()) reject(new TesseraError(reason));
    this.#pending.clear();
  }
}
