// The host worker's message loop (wasm/js/host/serve.js) over a fake port and a stub module:
// replies keep call order, errors become replies, and a module that aborts ends the engine.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { serve } from '../../wasm/js/host/serve.js';

// A stub of the Emscripten module: just what init and memoryUsage reach.
function stubModule({ heapBytes }) {
  return {
    wasmMemory: { buffer: new ArrayBuffer(64) },
    _tessera_engine_create: () => 1,
    _tessera_engine_threads: () => 2,
    _tessera_engine_destroy: () => {},
    _tessera_heap_bytes_in_use: heapBytes,
  };
}

// Serves `module`; returns call(method, args) resolving with the reply.
function start(module) {
  const replies = new Map();
  let handler;
  serve({ post: (message) => replies.get(message.id)(message), listen: (h) => (handler = h) }, async () => module);
  let nextId = 1;
  return (method, args = {}) => new Promise((resolve) => {
    const id = nextId++;
    replies.set(id, resolve);
    handler({ id, method, args });
  });
}

it('answers in call order, with errors as replies', async () => {
  const call = start(stubModule({ heapBytes: () => 123 }));
  const replies = await Promise.all([call('init', { flavour: 'threads', threads: 2 }), call('memoryUsage'),
    call('run', { model: 7, inputs: [], options: {} })]);
  assert.deepEqual(replies[0], { id: 1, result: { threads: 2 } });
  assert.deepEqual(replies[1], { id: 2, result: { wasmBytes: 64, heapInUseBytes: 123 } });
  assert.deepEqual(replies[2], { id: 3, error: { name: 'TesseraError', message: 'the model was disposed' } });
  await call('dispose');
  assert.deepEqual(await call('memoryUsage'), { id: 5, error: { name: 'Error', message: 'the engine was disposed' } });
});

it('a module that aborts fails that call and every later one, and still disposes', async () => {
  const call = start(stubModule({ heapBytes: () => { throw new WebAssembly.RuntimeError('unreachable'); } }));
  await call('init', { flavour: 'single', threads: 1 });
  const aborted = /^the engine aborted \(unreachable\) and cannot be used further: create a new engine$/;
  assert.match((await call('memoryUsage')).error.message, aborted);
  assert.match((await call('loadModel', { json: { text: '{}' }, weights: null })).error.message, aborted);
  assert.deepEqual(await call('dispose'), { id: 4, result: undefined });
});
