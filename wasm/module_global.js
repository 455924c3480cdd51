// Appended to the Emscripten loader (--extern-post-js). Imported as an ES module, as the
// browser host worker does, the loader's top-level names stay module-scoped: publish the
// factory on globalThis as well.
globalThis.createTesseraModule = createTesseraModule;
