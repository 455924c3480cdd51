// tessera/ocr: PP-OCR text detection, direction classification and recognition on a Tessera
// engine. Plain ES modules without Node or DOM APIs: the same code runs in pages, Workers and
// Node; decoding images stays with the caller (a canvas's ImageData, or a PNG decoder).
import { Ocr } from './pipeline.js';

export { Ocr, bucketOf, kWidthBuckets } from './pipeline.js';

const isModel = (value) => typeof value?.run === 'function' && Array.isArray(value?.inputs);

/**
 * Loads the three PP-OCR models and the dictionary; returns an Ocr.
 * @param engine a tessera Engine
 * @param options { det, cls, rec: a Model, or a URL of a model JSON (converted from the ONNX
 *   files with their dims left symbolic: tessera convert); dictionary: the recogniser's
 *   characters as an array, the text of its keys file, or its URL; onProgress(event) as
 *   engine.loadModel's, with `model` ('det', 'cls', 'rec'); and the Ocr options: maxSide
 *   (960), dropScore (0.5), batch (1) }
 */
export async function createOcr(engine, options = {}) {
  const { det, cls, rec, dictionary, onProgress, ...rest } = options;
  const characters = await readDictionary(dictionary);
  const models = {};
  const loaded = [];  // what this call loaded, to free if a later step fails
  try {
    for (const [key, source] of Object.entries({ det, cls, rec })) {
      if (isModel(source)) {
        models[key] = source;
      } else if (source instanceof URL) {
        const progress = onProgress && { onProgress: (event) => onProgress({ ...event, model: key }) };
        loaded.push(models[key] = await engine.loadModel(source, progress));
      } else {
        throw new TypeError(`createOcr: ${key} must be a loaded Model or the URL of its JSON`);
      }
    }
    return new Ocr(models, characters, rest);
  } catch (error) {
    await Promise.allSettled(loaded.map((model) => model.dispose()));
    throw error;
  }
}

async function readDictionary(dictionary) {
  if (Array.isArray(dictionary)) return dictionary;
  let text = dictionary;
  if (dictionary instanceof URL) {
    let response;
    try {
      response = await fetch(dictionary);
    } catch (error) {
      throw new Error(`createOcr: cannot fetch the dictionary ${dictionary.href} (${error.message}); ` +
                      'in Node, pass its text instead (readFileSync(path, \'utf8\'))');
    }
    if (!response.ok) throw new Error(`createOcr: cannot fetch the dictionary ${dictionary.href}: HTTP ${response.status}`);
    text = await response.text();
  }
  if (typeof text !== 'string') {
    throw new TypeError('createOcr: dictionary must be an array of characters, the keys file\'s text, or its URL');
  }
  return text.replace(/\r/g, '').replace(/\n$/, '').split('\n');
}
