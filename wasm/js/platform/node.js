// What the engine needs from Node (the "node" condition of the package's #platform import):
// the core count and the host worker as a worker_threads Worker. Browser bundles never reach
// this file.
import os from 'node:os';
import { Worker } from 'node:worker_threads';

export const defaultThreads = () => os.availableParallelism();

/** Node shares memory between threads without conditions. */
export const crossOriginIsolated = () => true;

/**
 * Starts the host worker (host/node_worker.js). Options for browsers (assetsUrl) do not
 * apply: Node loads the package's files from where npm installed them.
 */
export function startHost(options, listeners) {
  return nodePort(new Worker(new URL('../host/node_worker.js', import.meta.url)), listeners);
}

/**
 * A worker_threads Worker as the host channel's port. An idle engine does not keep Node
 * running: the worker is referenced only while calls are pending (busy(true)).
 */
export function nodePort(worker, { onMessage, onFailure }) {
  worker.on('message', onMessage);
  worker.on('error', (error) => onFailure(`the engine's worker failed: ${error?.message ?? error}`));
  worker.on('exit', (code) => onFailure(`the engine's worker stopped (exit code ${code})`));
  worker.unref();
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    busy: (busy) => (busy ? worker.ref() : worker.unref()),
    terminate: () => worker.terminate(),
  };
}
