// The tessera package in Node (the "node" export condition): the engine of index.js, its host
// worker a worker_threads Worker.
import { engineFactory } from './engine.js';
import * as node from './platform/node.js';

export const createEngine = engineFactory(node);
export { Engine, Model, clearModelCache } from './engine.js';
export { StagedModel } from './staged_model.js';
export { TesseraError } from './errors.js';
