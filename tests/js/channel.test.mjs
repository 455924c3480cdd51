// The caller's side of the host worker (wasm/js/host/channel.js) over a fake Node worker
// (platform/node.js's port): the worker is referenced only while calls are pending, events
// reach their call before its result, a stopped or dead worker rejects every pending call,
// late replies are ignored, and a message that cannot be posted rejects.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { it } from 'node:test';

import { HostChannel } from '../../wasm/js/host/channel.js';
import { nodePort } from '../../wasm/js/platform/node.js';

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

const channelOver = (worker) => new HostChannel((listeners) => nodePort(worker, listeners));

it('holds a reference to the worker only while calls are pending', async () => {
  const worker = new FakeWorker();
  const channel = channelOver(worker);
  assert.equal(worker.refs, 0);
  const reply = channel.call('memoryUsage');
  assert.equal(worker.refs, 1);
  worker.emit('message', { id: worker.posted[0].id, result: 42 });
  assert.equal(await reply, 42);
  assert.equal(worker.refs, 0);
});

it('rejects pending calls when stopped, ignores late replies, and rejects later calls', async () => {
  const worker = new FakeWorker();
  const channel = channelOver(worker);
  const pending = channel.call('loadModel');
  channel.terminate();
  await assert.rejects(pending, /the engine was disposed/);
  worker.emit('message', { id: worker.posted[0].id, result: 'late' });  // must not throw
  await assert.rejects(channel.call('run'), /the engine was disposed/);
});

it('a worker that dies rejects with its exit code', async () => {
  const worker = new FakeWorker();
  const channel = channelOver(worker);
  const pending = channel.call('run');
  worker.emit('exit', 7);
  await assert.rejects(pending, /the engine's worker stopped \(exit code 7\)/);
});

it('a message that cannot be posted rejects and leaves nothing pending', async () => {
  const worker = new FakeWorker();
  const channel = channelOver(worker);
  await assert.rejects(channel.call('loadModel', { unclonable: true }), { name: 'DataCloneError' });
  assert.equal(worker.refs, 0);
  const reply = channel.call('memoryUsage');
  worker.emit('message', { id: worker.posted[0].id, error: { name: 'Error', message: 'boom' } });
  await assert.rejects(reply, { name: 'TesseraError', message: 'boom' });
});

it('passes events to their call until its result arrives', async () => {
  const worker = new FakeWorker();
  const channel = channelOver(worker);
  const events = [];
  const reply = channel.call('loadModel', {}, [], (event) => events.push(event));
  const { id } = worker.posted[0];
  worker.emit('message', { id, event: { loaded: 1 } });
  worker.emit('message', { id, event: { loaded: 2 } });
  worker.emit('message', { id, result: 'model' });
  worker.emit('message', { id, event: { loaded: 3 } });  // after the result: dropped
  assert.equal(await reply, 'model');
  assert.deepEqual(events, [{ loaded: 1 }, { loaded: 2 }]);
  assert.equal(worker.refs, 0);
});
