// Types for tessera/convert: the ONNX <-> Tessera converter (runs in Node and browsers).

/** A conversion failure caused by the input model; its message is meant for the user. */
export class ConvertError extends Error {}

/** The ONNX op types Tessera runs. */
export const supportedOps: readonly string[];

export interface ConvertOptions {
  /**
   * Pins every dimension of graph inputs, e.g. `{ x: [1, 3, 640, 640] }` (`[]` for a scalar);
   * without it, dynamic dimensions stay symbols (format version 2).
   */
  inputShapes?: Record<string, number[]>;
  /** The model's name, which also names the weights file `<name>.bin`. */
  name?: string;
}

/**
 * Converts an ONNX model (the .onnx file's bytes) to Tessera's JSON and weights; the JSON's
 * `version` is 1 for static float32 models of version-1 ops, else 2.
 */
export function convertOnnx(onnxBytes: Uint8Array, options?: ConvertOptions): { json: object; weights: Uint8Array };

/** Converts a Tessera model (format version 1 or 2) to an ONNX opset-20 model; returns the .onnx file's bytes. */
export function exportOnnx(json: object, weightsBytes?: Uint8Array): Uint8Array;

/** A file-system-safe stem for `name` (for <stem>.json and <stem>.bin). */
export function fileStem(name: string): string;

/** Model JSON text with one line per input, output, initializer and node. */
export function stringifyModel(json: object): string;
