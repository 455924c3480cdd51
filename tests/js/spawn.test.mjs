// The caller's side of the host worker (wasm/js/host/spawn.js) over a fake Node worker:
// the worker is referenced only while calls are pending, a stopped or dead worker rejects
// every pending call, late replies are ignored, and a message that cannot be posted rejects.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { it } from 'node:test';

import { HostChannel } from '../../wasm/js/host/spawn.js';

class FakeWorker extends EventEmitter {
  posted = [];
  refs = 0;
  ref() { this.refs = 1; }
  unref() { this.refs = 0; }
  terminate() { this.emit('exit', 1); }
  postMessage(message) {
    if (message.args.unclonable) throw new DOMException('could not be cloned', 'DataCloneError');
    this.posted.push(message);
  }
}

it('holds a reference to the worker only while calls are pending', async () => {
  const worker = new FakeWorker();
  const channel = new HostChannel(worker, true);
  assert.equal(worker.refs, 0);
  const reply = channel.call('memoryUsage');
  assert.equal(worker.refs, 1);
  worker.emit('message', { id: worker.posted[0].id, result: 42 });
  assert.equal(await reply, 42);
  assert.equal(worker.refs, 0);
});

it('rejects pending calls when stopped, ignores late replies, and rejects later calls', async () => {
  const worker = new FakeWorker();
  const channel = new HostChannel(worker, true);
  const pending = channel.call('loadModel');
  channel.terminate();
  await assert.rejects(pending, /the engine was disposed/);
  worker.emit('message', { id: worker.posted[0].id, result: 'late' });  // must not throw
  await assert.rejects(channel.call('run'), /the engine was disposed/);
});

it('a worker that dies rejects with its exit code', async () => {
  const worker = new FakeWorker();
  const channel = new HostChannel(worker, true);
  const pending = channel.call('run');
  worker.emit('exit', 7);
  await assert.rejects(pending, /the engine's worker stopped \(exit code 7\)/);
});

it('a message that cannot be posted rejects and leaves nothing pending', async () => {
  const worker = new FakeWorker();
  const channel = new HostChannel(worker, true);
  await assert.rejects(channel.call('loadModel', { unclonable: true }), { name: 'DataCloneError' });
  assert.equal(worker.refs, 0);
  const reply = channel.call('memoryUsage');
  worker.emit('message', { id: worker.posted[0].id, error: { name: 'Error', message: 'boom' } });
  await assert.rejects(reply, { name: 'TesseraError', message: 'boom' });
});
