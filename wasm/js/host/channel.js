// The caller's side of the host worker that owns the WebAssembly module: a promise-based call
// interface over the worker's port (platform/node.js, platform/browser.js).
import { TesseraError } from '../errors.js';

export class HostChannel {
  #port;
  #pending = new Map();  // id -> { resolve, reject, onEvent }
  #nextId = 1;
  #failure = null;       // set once the worker has died

  /** @param startPort (listeners) => port { post(message, transfer), busy(bool), terminate() } */
  constructor(startPort) {
    this.#port = startPort({
      onMessage: (message) => this.#settle(message),
      onFailure: (reason) => this.#die(reason),
    });
  }

  /**
   * Calls `method` in the worker; resolves with its result, rejects with its error.
   * `onEvent` receives what the call reports before it ends (download progress).
   */
  call(method, args = {}, transfer = [], onEvent = null) {
    if (this.#failure) return Promise.reject(new TesseraError(this.#failure));
    const id = this.#nextId++;
    try {
      this.#port.post({ id, method, args }, transfer);
    } catch (error) {
      return Promise.reject(error);  // e.g. a detached buffer: nothing was sent
    }
    if (this.#pending.size === 0) this.#port.busy(true);
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject, onEvent }));
  }

  /** Stops the worker; later calls reject. */
  terminate() {
    this.#die('the engine was disposed');
    this.#port.terminate();
  }

  #settle({ id, event, result, error }) {
    const call = this.#pending.get(id);
    if (!call) return;  // its caller was already rejected: the worker died or was stopped
    if (event) return this.#report(call, event);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#port.busy(false);
    if (!error) return call.resolve(result);
    const ErrorType = error.name === 'TypeError' ? TypeError : TesseraError;
    call.reject(new ErrorType(error.message));
  }

  // A callback that throws must not take the channel (or Node's process) down with it.
  #report(call, event) {
    try {
      call.onEvent?.(event);
    } catch (error) {
      console.error('tessera: the onProgress callback threw:', error);
    }
  }

  #die(reason) {
    if (this.#failure) return;
    this.#failure = reason;
    for (const { reject } of this.#pending.values()) reject(new TesseraError(reason));
    this.#pending.clear();
  }
}
