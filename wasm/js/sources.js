// Model sources as users hold them, made into the host worker's load request: JSON as an
// object, text or URL; weights as bytes or a URL. URLs are fetched by the host worker
// (host/model_files.js), so weights stream into the engine without passing through here.
import { ownBuffer } from './own_buffer.js';

const isBytes = (value) => value instanceof ArrayBuffer || value instanceof Uint8Array;
const isPlainObject = (value) => value !== null && typeof value === 'object' &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value));

/**
 * The options of loadModel(json, weights?, options?), or of loadModel(json, options), with the
 * weights as their `weights`.
 */
export function loadArguments(weights, options) {
  const isOptions = isPlainObject(weights);
  if (isOptions && options !== undefined) throw new TypeError('loadModel: takes (json, weights, options) or (json, options)');
  return isOptions ? weights : { ...options, weights: weights ?? options?.weights };
}

/** The model JSON as { url } (a URL's href) or { text }; a string must be JSON text. */
export function jsonSource(json) {
  if (json instanceof URL) return { url: json.href };
  if (typeof json === 'string') {
    if (!json.trimStart().startsWith('{')) {
      throw new TypeError('loadModel: a string must be the model JSON text; for a file or address pass a URL ' +
                          '(new URL(path, import.meta.url), or pathToFileURL(path) in Node)');
    }
    return { text: json };
  }
  if (json !== null && typeof json === 'object' && !ArrayBuffer.isView(json) && !(json instanceof ArrayBuffer)) {
    return { text: JSON.stringify(json) };
  }
  throw new TypeError('loadModel: json must be an object, JSON text or a URL');
}

/** { request, transfer, onProgress } for the host worker's loadModel. */
export function loadRequest(json, weightsArgument, optionsArgument) {
  const { weights, onProgress, cache = false } = loadArguments(weightsArgument, optionsArgument);
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError('loadModel: onProgress must be a function');
  }
  const request = { json: jsonSource(json), weights: null, cache: Boolean(cache), progress: Boolean(onProgress) };
  const transfer = [];
  if (weights instanceof URL) {
    request.weights = { url: weights.href };
  } else if (isBytes(weights)) {
    const own = ownBuffer(weights instanceof ArrayBuffer ? new Uint8Array(weights) : weights);
    request.weights = { bytes: own.view };
    if (own.owned) transfer.push(own.view.buffer);
  } else if (weights !== undefined && weights !== null) {
    throw new TypeError('loadModel: weights must be an ArrayBuffer, a Uint8Array or a URL');
  }
  return { request, transfer, onProgress };
}
