// What the engine needs from Node (the "node" condition of the package's #platform import):
// the core count and the host worker as a worker_threads Worker. Browser bundles never reach
// this file.
import { open, stat } from 'node:fs/promises';
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

/**
 * A file: URL read in parts where it lies: { size, read(offset, bytes) => Promise<Uint8Array> }.
 * The host worker streams model files through it, and the workers of a placed model read their
 * weights with it (weight_source.js).
 */
export async function openFile(url) {
  const { size } = await stat(url);
  return {
    size,
    read: async (offset, bytes) => {
      const file = await open(url);
      try {
        const out = new Uint8Array(bytes);
        for (let done = 0; done < bytes;) {
          // One fs read takes at most 2 GiB.
          const { bytesRead } = await file.read(out, done, Math.min(bytes - done, 2 ** 30), offset + done);
          if (bytesRead === 0) throw new Error(`${url.href}: ends before byte ${offset + bytes}`);
          done += bytesRead;
        }
        return out;
      } finally {
        await file.close();
      }
    },
  };
}
