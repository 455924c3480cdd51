// Types for the tessera package: the inference engine (the converter: 'tessera/convert').

/**
 * A failure reported by the engine: a bad model, a wrong input name, shape or dtype, memory
 * running out. The message names the node or tensor at fault; the engine stays usable.
 */
export class TesseraError extends Error {}

export interface EngineOptions {
  /** Executor threads; default: the machine's cores, at most 16. One with the single build. */
  threads?: number;
  /**
   * Which WebAssembly build: "auto" (default) picks the threaded build when SharedArrayBuffer
   * is usable (always in Node; in browsers on cross-origin isolated pages) and otherwise the
   * single-threaded build, with a console warning.
   */
  wasm?: 'auto' | 'threads' | 'single';
}

export interface EngineFeatures {
  simd: boolean;
  threads: boolean;
  crossOriginIsolated: boolean;
  build: 'threads' | 'single';
}

export interface TensorSpec {
  name: string;
  dims: number[];
}

export interface OutputTensor {
  data: Float32Array;
  dims: number[];
}

export type InputTensor = Float32Array | { data: Float32Array; dims?: number[] };

export interface RunOptions {
  /** Record the tile timeline of this run for Model.trace(). */
  trace?: boolean;
  /** "dynamic" (default): ready tiles, depth-first, no barriers; the others are baselines. */
  scheduler?: 'dynamic' | 'barrier' | 'shuffle';
}

export interface NodeInfo {
  name: string;
  op: string;
  kernel: string;
  fused: string;
  fused_nodes: string[];
  shape: number[];
  layout: string;
  grid: number[];
  tiles: number;
  in_edges: number;
  flops: number;
}

export interface ModelInfo {
  name: string;
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  nodes: NodeInfo[];
  flops: number;
  tiles: number;
  data_edges: number;
  reuse_edges: number;
  critical_path_flops: number;
  critical_path_tiles: number;
  arena_bytes: number;
  tensor_bytes: number;
  weight_bytes: number;
  isa: string;
  compile_ms: number;
}

/** Chrome / Perfetto trace JSON: one complete event ("ph": "X") per tile, one track per thread. */
export interface Trace {
  traceEvents: Array<Record<string, unknown>>;
  displayTimeUnit: string;
  otherData: Record<string, unknown>;
}

export class Model {
  readonly name: string;
  readonly inputs: TensorSpec[];
  readonly outputs: TensorSpec[];
  run(inputs: Record<string, InputTensor>, options?: RunOptions): Promise<Record<string, OutputTensor>>;
  inspect(): ModelInfo;
  /** The tile timeline of the last run made with `{ trace: true }`. */
  trace(): Trace;
  dispose(): Promise<void>;
}

export class Engine {
  readonly threads: number;
  readonly features: EngineFeatures;
  /**
   * Compiles a model. `json`: an object, its text, or a URL. `weights`: bytes or a URL; for
   * JSON given as a URL, by default the file its "weights" field names (else the .bin beside it).
   */
  loadModel(json: object | string | URL, weights?: ArrayBuffer | Uint8Array | URL): Promise<Model>;
  /** The WebAssembly memory's size and the bytes its allocator holds. */
  memoryUsage(): Promise<{ wasmBytes: number; heapInUseBytes: number }>;
  /** Frees the models and the engine and stops its worker and threads; a second call does nothing. */
  dispose(): Promise<void>;
}

export function createEngine(options?: EngineOptions): Promise<Engine>;
