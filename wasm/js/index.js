// The tessera package in browsers (and any bundle that is not for Node): the inference engine
// on WebAssembly, threads when the page is cross-origin isolated. The ONNX converter is its
// own entry, 'tessera/convert'. Plain ES modules: a page may import them as they are.
import { engineFactory } from './engine.js';
import * as browser from './platform/browser.js';

export const createEngine = engineFactory(browser);
export { Engine, Model, clearModelCache } from './engine.js';
export { StagedModel } from './staged_model.js';
export { TesseraError } from './errors.js';
