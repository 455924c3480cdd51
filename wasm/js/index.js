// The tessera package: the inference engine (WebAssembly, threads when available). The ONNX
// converter is its own entry, 'tessera/convert': it rests on onnx-proto (CommonJS, which
// browsers load only through a bundler), while this entry is plain ES modules a page can
// import as they are.
export { createEngine, Engine, Model } from './engine.js';
export { TesseraError } from './errors.js';
