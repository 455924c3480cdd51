// The tessera package: the inference engine (WebAssembly, threads when available) and the
// ONNX converter.
export { createEngine, Engine, Model } from './engine.js';
export { TesseraError } from './errors.js';
export { ConvertError, convertOnnx, exportOnnx, supportedOps } from './convert/index.js';
