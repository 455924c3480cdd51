// A model's files as the host worker reads them: the JSON and the weights, each either sent
// by the caller or named by a URL. URLs are fetched here, in the worker, so weights stream
// from the network (or the Cache API) straight into WebAssembly memory without a whole copy
// in JavaScript; file: URLs are read from disk in Node. Progress goes out per chunk.
import { TesseraError } from '../errors.js';

/** The Cache API cache that `{ cache: true }` keeps model files in. */
export const kCacheName = 'tessera-models';

const kLabels = { json: 'model JSON', weights: 'weights' };
// How much of a file (Node) is read at once.
const kFilePart = 2 ** 26;
// The most a wasm32 buffer can hold.
const kMaxBytes = 2 ** 32 - 1;
// Answers that mean "no such file" for the optional weights beside a JSON (object stores
// answer 403 for a missing key).
const kMissing = new Set([403, 404, 410]);

/**
 * Reads a loadModel request: { json: { text } | { url }, weights: { bytes } | { url } | null,
 * cache, progress }. Returns { jsonText, weights: engine.weightsBuffer or null }; the caller
 * hands the weights to the load (or frees them).
 * @param host { engine, openFile?: (url) => Promise<{ size, read(offset, bytes) }>, notify(event) }
 */
export async function readModelFiles(request, host) {
  const cache = request.cache ? await openCache() : null;
  const from = { ...host, cache, notify: request.progress ? host.notify : () => {} };
  const jsonText = request.json.text ?? new TextDecoder().decode(await readAll(request.json.url, 'json', from));
  if (request.weights?.bytes) {
    const weights = host.engine.weightsBuffer(request.weights.bytes.byteLength, 'the weights', jsonText);
    weights.write(request.weights.bytes, 0);
    return { jsonText, weights };
  }
  const located = request.weights?.url ? { url: request.weights.url, optional: false }
                                       : weightsBeside(request.json.url, jsonText);
  if (!located) return { jsonText, weights: null };
  const file = await open(located.url, 'weights', from, located.optional);
  return { jsonText, weights: file && await streamInto(file, jsonText, from) };
}

// The Cache API cache, or null where there is none or it is refused (private windows,
// blocked storage): a cache that fails costs downloads, never the model.
async function openCache() {
  try {
    return globalThis.caches ? await globalThis.caches.open(kCacheName) : null;
  } catch (error) {
    console.warn(`tessera: the model cache is unavailable (${error.message}): loading without it`);
    return null;
  }
}

// Where the weights of JSON loaded from `jsonUrl` are: the file its "weights" field names
// (relative to the JSON), else the JSON's URL with .bin for .json (for http(s) and file:
// URLs), if that exists.
export function weightsBeside(jsonUrl, jsonText) {
  if (!jsonUrl) return null;
  let named;
  try {
    named = JSON.parse(jsonText).weights;
  } catch {
    return null;  // the engine reports the malformed JSON
  }
  if (typeof named === 'string') return { url: new URL(named, jsonUrl).href, optional: false };
  const sibling = new URL(jsonUrl);
  if (!['http:', 'https:', 'file:'].includes(sibling.protocol)) return null;
  sibling.pathname = sibling.pathname.replace(/\.json$/, '') + '.bin';
  return { url: sibling.href, optional: true };  // a model without initializers has none
}

/**
 * Opens a file of a kind ('json', 'weights'): { kind, url, total (bytes, or null when
 * unknown), cached, chunks (async iterable of Uint8Array), stored (the Cache API write, or
 * null), cancel() for a download left unread }. An optional file that does not exist is null.
 */
async function open(url, kind, { openFile, cache }, optional = false) {
  const what = kLabels[kind];
  if (url.startsWith('file:') && openFile) {
    let file;
    try {
      file = await openFile(new URL(url));
    } catch (error) {
      if (optional && error.code === 'ENOENT') return null;
      throw new TesseraError(`cannot read ${what} ${url}: ${error.message}`);
    }
    return { kind, url, total: file.size, cached: false, chunks: partsOf(file), stored: null };
  }
  const hit = await cache?.match(url).catch(() => null);  // a failing cache is no cache
  if (hit) return { kind, url, total: declaredLength(hit), cached: true, chunks: chunksOf(hit.body), stored: null };
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new TesseraError(`cannot fetch ${what} ${url}: ${error.message}`);
  }
  // A server that answers every path with its app page (Vite's dev server) has no such file.
  const page = response.headers.get('Content-Type')?.startsWith('text/html');
  if (optional && (kMissing.has(response.status) || (response.ok && page))) return null;
  if (!response.ok) throw new TesseraError(`cannot fetch ${what} ${url}: HTTP ${response.status}`);
  // The cache reads its own branch of the body while the load reads the other. A failed
  // write (storage quota) costs the next load a download, not this one its model.
  const stored = cache?.put(url, response.clone())
    .catch((error) => console.warn(`tessera: could not cache ${url}: ${error.message}`)) ?? null;
  return { kind, url, total: declaredLength(response), cached: false, chunks: chunksOf(response.body), stored,
           cancel: () => response.body.cancel().catch(() => {}) };
}

// The body's length when the headers tell it for sure, else null. Content-Length counts the
// bytes on the wire: the body's own length only when not encoded, and a cross-origin
// response hides its Content-Encoding, so there it is no more than a hint.
function declaredLength(response) {
  if (response.type === 'cors' || response.type === 'opaque') return null;
  const encoding = response.headers.get('Content-Encoding');
  const length = Number(response.headers.get('Content-Length'));
  return (!encoding || encoding === 'identity') && response.headers.has('Content-Length') ? length : null;
}

// A file read in parts of at most kFilePart bytes.
async function* partsOf(file) {
  for (let offset = 0; offset < file.size; offset += kFilePart) {
    yield await file.read(offset, Math.min(kFilePart, file.size - offset));
  }
}

async function* chunksOf(body) {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

// A file's chunks; a failure of the connection (or the disk) names the file.
async function* named(file) {
  try {
    yield* file.chunks;
  } catch (error) {
    throw error instanceof TesseraError ? error
      : new TesseraError(`cannot read ${kLabels[file.kind]} ${file.url}: ${error.message}`);
  }
}

// Reads a file's chunks, reporting progress: { file, url, loaded, total, cached } after each,
// the last with loaded === total. `take(chunk, offset)` keeps each chunk.
async function readChunks(file, { notify }, take) {
  let loaded = 0;
  for await (const chunk of named(file)) {
    if (file.total !== null && loaded + chunk.byteLength > file.total) {
      throw new TesseraError(`${kLabels[file.kind]} ${file.url}: more bytes arrived than its declared ${file.total}`);
    }
    take(chunk, loaded);
    loaded += chunk.byteLength;
    notify({ file: file.kind, url: file.url, loaded, total: file.total ?? loaded, cached: file.cached });
  }
  if (file.total !== null && loaded !== file.total) {
    throw new TesseraError(`${kLabels[file.kind]} ${file.url} is truncated: ${loaded} of ${file.total} bytes arrived`);
  }
  if (loaded === 0) notify({ file: file.kind, url: file.url, loaded, total: 0, cached: file.cached });
  await file.stored;
  return loaded;
}

// A whole file's bytes (the model JSON).
async function readAll(url, kind, from) {
  const chunks = [];
  const size = await readChunks(await open(url, kind, from), from, (chunk) => chunks.push(chunk));
  return concat(chunks, size);
}

// The weights of the model `jsonText` in an engine buffer: written chunk by chunk when their
// size is known up front, else gathered and copied in once.
async function streamInto(file, jsonText, from) {
  const { engine } = from;
  if (file.total === null) {
    const chunks = [];
    const size = await readChunks(file, from, (chunk) => chunks.push(chunk));
    const weights = engine.weightsBuffer(checkSize(size, file), `weights ${file.url}`, jsonText);
    placeChunks(chunks, (chunk, offset) => weights.write(chunk, offset));
    return weights;
  }
  const weights = engine.weightsBuffer(checkSize(file.total, file), `weights ${file.url}`, jsonText);
  try {
    await readChunks(file, from, (chunk, offset) => weights.write(chunk, offset));
    return weights;
  } catch (error) {
    weights.free();
    throw error;
  }
}

// `bytes`, when a wasm32 buffer can hold that many; else the download stops with an error.
function checkSize(bytes, file) {
  if (bytes <= kMaxBytes) return bytes;
  file.cancel?.();
  throw new TesseraError(`weights ${file.url}: ${bytes} bytes are more than WebAssembly memory can hold ` +
                         '(4 GiB per instance): place the model over workers (loadModel\'s workers option)');
}

// Calls put(chunk, offset) with each chunk's offset in the whole.
function placeChunks(chunks, put) {
  let offset = 0;
  for (const chunk of chunks) {
    put(chunk, offset);
    offset += chunk.byteLength;
  }
}

function concat(chunks, size) {
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  placeChunks(chunks, (chunk, offset) => bytes.set(chunk, offset));
  return bytes;
}
