// Loading from URLs in the installed package (Node): files fetched by the host worker with
// progress per chunk, whatever the server says of their length (Content-Length, none,
// gzip-encoded), and errors that name the file when a download breaks off or is missing.
// Each model loaded so computes what the same model loaded from bytes computes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, it } from 'node:test';
import zlib from 'node:zlib';

import { zooInput, zooModel } from './models.mjs';
import { importFromApp } from './package.mjs';

const { createEngine, TesseraError } = await importFromApp('tessera');

const zoo = zooModel('tiny_cnn');
const files = { '/m.json': fs.readFileSync(zoo.json), [`/${zoo.model.weights}`]: fs.readFileSync(zoo.weights) };
const input = zooInput(zoo, 3);

// Serves the model's files the way `mode` says: 'length' (Content-Length), 'chunked' (none),
// 'gzip' (encoded: Content-Length counts the compressed bytes), 'truncated' (the weights
// stop half way through their declared length), 'huge' (the weights claim 4 GiB and more).
function serve(mode) {
  const server = http.createServer((request, response) => {
    const body = files[new URL(request.url, 'http://localhost').pathname];
    if (!body) return response.writeHead(404).end();
    const weights = body !== files['/m.json'];
    if (mode === 'gzip') {
      const encoded = zlib.gzipSync(body);
      return response.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': encoded.length }).end(encoded);
    }
    if (mode === 'chunked') {
      response.writeHead(200);
      for (let at = 0; at < body.length; at += 4096) response.write(body.subarray(at, at + 4096));
      return response.end();
    }
    if (mode === 'huge' && weights) {
      response.writeHead(200, { 'Content-Length': 2 ** 32 + 100 });
      return response.write(body.subarray(0, 16));
    }
    response.writeHead(200, { 'Content-Length': body.length });
    if (mode === 'truncated' && weights) {
      response.write(body.subarray(0, body.length >> 1));
      return response.destroy();
    }
    response.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    servers.push(server);
    resolve(new URL(`http://127.0.0.1:${server.address().port}/m.json`));
  }));
}

const servers = [];
let engine;
let expected;
before(async () => {
  engine = await createEngine({ threads: 2 });
  const model = await engine.loadModel(zoo.model, files[`/${zoo.model.weights}`]);
  expected = await model.run({ [input.name]: input });
  await model.dispose();
});
after(async () => {
  await engine.dispose();
  for (const server of servers) server.close();
});

async function loadAndCheck(json, options) {
  const model = await engine.loadModel(json, options);
  assert.deepEqual(await model.run({ [input.name]: input }), expected);
  await model.dispose();
}

for (const mode of ['length', 'chunked', 'gzip']) {
  it(`over HTTP (${mode}): progress rises to each file's size, the JSON's first`, async () => {
    const url = await serve(mode);
    const progress = [];
    await loadAndCheck(url, { onProgress: (event) => progress.push(event), cache: true });
    assert.deepEqual([...new Set(progress.map((event) => event.file))], ['json', 'weights']);
    for (const [file, path] of [['json', '/m.json'], ['weights', `/${zoo.model.weights}`]]) {
      const events = progress.filter((event) => event.file === file);
      assert.ok(events.every((event, i) => i === 0 || event.loaded > events[i - 1].loaded));
      assert.deepEqual(events.at(-1), { file, url: new URL(path, url).href, loaded: files[path].length,
                                        total: files[path].length, cached: false });
      if (mode === 'length') assert.ok(events.every((event) => event.total === files[path].length));
    }
  });
}

it('a file: URL reports one event per file', async () => {
  const progress = [];
  await loadAndCheck(zoo.url, { onProgress: (event) => progress.push(event) });
  assert.deepEqual(progress.map(({ file, loaded, total }) => [file, loaded, total]),
    [['json', files['/m.json'].length, files['/m.json'].length],
     ['weights', files[`/${zoo.model.weights}`].length, files[`/${zoo.model.weights}`].length]]);
});

it('takes the weights positionally or in the options, with progress only for URLs', async () => {
  const weights = files[`/${zoo.model.weights}`];
  const progress = [];
  await loadAndCheck(zoo.model, { weights, onProgress: (event) => progress.push(event) });
  const model = await engine.loadModel(zoo.model, weights, { onProgress: (event) => progress.push(event) });
  await model.dispose();
  assert.deepEqual(progress, []);
  await assert.rejects(engine.loadModel(zoo.model, { onProgress: 'yes' }), TypeError);
  await assert.rejects(engine.loadModel(zoo.model, new DataView(weights.buffer)), /weights must be an ArrayBuffer/);
  await assert.rejects(engine.loadModel(zoo.model, { weights }, {}), TypeError);
});

it('a download that breaks off names the weights file, and the engine keeps working', async () => {
  const url = await serve('truncated');
  await assert.rejects(engine.loadModel(url), (error) => {
    assert.ok(error instanceof TesseraError);
    assert.match(error.message, new RegExp(`weights ${new URL(zoo.model.weights, url).href}`));
    return true;
  });
  await loadAndCheck(zoo.model, files[`/${zoo.model.weights}`]);
});

it('a missing weights file named by the JSON is an error that names it', async () => {
  const url = await serve('length');
  const renamed = new URL('renamed.json', url);
  files['/renamed.json'] = Buffer.from(JSON.stringify({ ...zoo.model, weights: 'gone.bin' }));
  await assert.rejects(engine.loadModel(renamed), new RegExp(`cannot fetch weights ${new URL('gone.bin', url).href}: HTTP 404`));
});

it('a server claiming 4 GiB of weights is refused before anything is allocated, naming the file', async () => {
  const url = await serve('huge');
  await assert.rejects(engine.loadModel(url), /weights http.*: 4294967396 bytes are more than WebAssembly memory can hold/);
  await loadAndCheck(zoo.model, files[`/${zoo.model.weights}`]);
});

it('an onProgress that throws is reported, and the load goes on', async () => {
  const url = await serve('length');
  const reported = [];
  const error = console.error;
  console.error = (...args) => reported.push(args.join(' '));
  try {
    await loadAndCheck(url, { onProgress: () => { throw new Error('callback bug'); } });
  } finally {
    console.error = error;
  }
  assert.ok(reported.length > 0 && reported.every((line) => line.includes('callback bug')));
});
