// esbuild entry for the gutenye-browser page of scripts/bench-ocr.mjs: @gutenye/ocr-browser
// with its backend registered, plus the pieces its Ocr keeps private, so the page can time
// detection and recognition apart. onnxruntime-web (and onnxruntime-common, which ocr-common
// imports for Tensor) stay external: the page maps both to onnxruntime-web's ort.min.mjs, so
// there is one Tensor class, and its threads start from that file rather than this bundle.
import '@gutenye/ocr-browser';
import cv from '@techstark/opencv-js';

export * as ort from 'onnxruntime-web';
// Deep paths: the packages' exports maps hide these files, and these are the same modules
// the package's index imports (one backend registry, one ImageRaw class).
export { Detection, Recognition } from '../../node_modules/@gutenye/ocr-common/build/models/index.js';
export { ImageRaw } from '../../node_modules/@gutenye/ocr-browser/build/ImageRaw.js';

// opencv.js instantiates its WebAssembly asynchronously; ocr-common calls it synchronously.
export const cvReady = new Promise((resolve) => {
  if (cv.Mat) resolve();
  else cv.onRuntimeInitialized = resolve;
});
