// Model sources as users hold them: JSON as an object, text or URL; weights as bytes or a
// URL. URLs are fetched (file: URLs read from disk in Node).
import { TesseraError } from './errors.js';

async function fetchBytes(url, what) {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    try {
      return new Uint8Array(await readFile(url));
    } catch (error) {
      throw new TesseraError(`cannot read ${what} ${url.href}: ${error.message}`);
    }
  }
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new TesseraError(`cannot fetch ${what} ${url.href}: ${error.message}`);
  }
  if (!response.ok) throw new TesseraError(`cannot fetch ${what} ${url.href}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The model JSON as text, and the URL it came from (for its weights file), if any. */
export async function readModelJson(json) {
  if (json instanceof URL) return { text: new TextDecoder().decode(await fetchBytes(json, 'model JSON')), url: json };
  if (typeof json === 'string') {
    if (!json.trimStart().startsWith('{')) {
      throw new TypeError('loadModel: a string must be the model JSON text; for a file or address pass a URL ' +
                          '(new URL(path, import.meta.url), or pathToFileURL(path) in Node)');
    }
    return { text: json, url: null };
  }
  if (json !== null && typeof json === 'object' && !ArrayBuffer.isView(json) && !(json instanceof ArrayBuffer)) {
    return { text: JSON.stringify(json), url: null };
  }
  throw new TypeError('loadModel: json must be an object, JSON text or a URL');
}

/**
 * The weights bytes: as given, or, for JSON loaded from a URL, the file its "weights" field
 * names (relative to the JSON), else the JSON's URL with .bin for .json if that exists.
 * Returns { bytes, owned }: owned bytes are a private copy the caller may transfer.
 */
export async function readWeights(weights, modelJson) {
  if (weights instanceof URL) return { bytes: await fetchBytes(weights, 'weights'), owned: true };
  if (weights instanceof ArrayBuffer) return { bytes: new Uint8Array(weights), owned: false };
  if (weights instanceof Uint8Array) return { bytes: weights, owned: false };
  if (weights !== undefined && weights !== null) {
    throw new TypeError('loadModel: weights must be an ArrayBuffer, a Uint8Array or a URL');
  }
  if (!modelJson.url) return { bytes: null, owned: false };
  let named;
  try {
    named = JSON.parse(modelJson.text).weights;
  } catch {
    return { bytes: null, owned: false };  // the engine reports the malformed JSON
  }
  if (typeof named === 'string') return { bytes: await fetchBytes(new URL(named, modelJson.url), 'weights'), owned: true };
  const sibling = new URL(modelJson.url);
  sibling.pathname = sibling.pathname.replace(/\.json$/, '') + '.bin';
  try {
    return { bytes: await fetchBytes(sibling, 'weights'), owned: true };
  } catch {
    return { bytes: null, owned: false };  // a model without initializers needs no weights file
  }
}
