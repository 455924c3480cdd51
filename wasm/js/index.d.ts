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
  /**
   * Browsers only: the directory (a URL, or a path relative to the page) holding a copy of the
   * package's wasm/dist/ files, for bundlers that do not copy them (esbuild). On another origin
   * (a CDN) it serves the WebAssembly files, while workers start from the app's own build.
   */
  assetsUrl?: string | URL;
  /**
   * Bytes the engine's WebAssembly memory may grow to, from 64 MiB (its starting size) to 4 GiB
   * (the default); the threaded build only. Past it, loading and running fail as out of memory.
   */
  maximumMemory?: number;
}

export interface EngineFeatures {
  simd: boolean;
  threads: boolean;
  crossOriginIsolated: boolean;
  build: 'threads' | 'single';
}

/** Element types: float32 for the heavy math; integers and bools for ids, masks, shapes. */
export type DType = 'float32' | 'int64' | 'int32' | 'bool' | 'uint8';

/** Float32Array (float32), BigInt64Array (int64), Int32Array (int32), Uint8Array (bool, uint8). */
export type TensorData = Float32Array | BigInt64Array | Int32Array | Uint8Array;

/** A model input or output as declared: a dim is a size or a symbol's name ("batch", "seq"). */
export interface ValueSpec {
  name: string;
  dtype: DType;
  dims: Array<number | string>;
}

/** A compiled tensor: concrete dims. */
export interface TensorSpec {
  name: string;
  dtype: DType;
  dims: number[];
}

/** An output: narrow on `dtype` to get its array type. */
export type OutputTensor =
  | { dtype: 'float32'; data: Float32Array; dims: number[] }
  | { dtype: 'int64'; data: BigInt64Array; dims: number[] }
  | { dtype: 'int32'; data: Int32Array; dims: number[] }
  | { dtype: 'bool' | 'uint8'; data: Uint8Array; dims: number[] };

/** The data alone when the input's declared dims are all fixed; else with its dims. */
export type InputTensor = TensorData | { data: TensorData; dims?: number[] };

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
  /** What tiled it: the default heuristic, the search, or a saved plan (LoadOptions.plan). */
  planner: 'default' | 'search' | 'file';
  compile_ms: number;
}

/**
 * A machine profile for the cost model (Engine.calibrate): the measured rates of Tessera's
 * kernels and runtime in one build. Pass it back as it is; `machine` says where it was made.
 */
export interface Profile {
  format: 'tessera-profile';
  version: number;
  machine: { cpu: string; isa: string; build: 'wasm-threads' | 'wasm-single' | 'native'; cores: number };
  date: string;
  quick: boolean;
  [measurement: string]: unknown;
}

export interface PredictOptions {
  /** Threads to predict for; default: the engine's. */
  threads?: number;
  scheduler?: 'dynamic' | 'barrier';
  /** Default: the engine's profile (calibrate, setProfile); without one, uncalibrated guesses. */
  profile?: Profile;
}

/** What the cost model predicts for the compiled model that inspect() describes. */
export interface Prediction {
  /** False without a profile: the numbers are guesses. */
  calibrated: boolean;
  /** The profile used: "<isa> <build>, <cpu>, <date>", or "uncalibrated". */
  profile: string;
  threads: number;
  scheduler: 'dynamic' | 'barrier';
  latencyMs: number;
  criticalPathMs: number;
  /** Per thread. */
  idleMs: number[];
  /** Per compiled node, in inspect().nodes order: the sum of its tiles' times. */
  nodes: Array<{ name: string; op: string; ms: number }>;
}

/** One compiled node's tiling, in inspect().nodes order. */
export interface NodePlan {
  name: string;
  op: string;
  /** Tiles per output dimension, as planned. */
  grid: number[];
  /** As the default heuristic tiles it. */
  defaultGrid: number[];
  /** The op's algorithm ("gemm", "winograd" for F(4x4, 3x3), "winograd_f2" for F(2x2, 3x3); empty for ops of
   * one): the op's own choice, the cost model's with a calibrated profile, or a saved plan's. */
  algorithm: string;
  /** The search's cost of this node's choice (zero when the search did not run). */
  predictedMs: number;
  /** The search's cost of the default's choice (zero when the search did not run). */
  defaultMs: number;
}

/** How the compiled model inspect() describes was tiled (Model.plan). */
export interface PlanReport {
  /** "file": a saved plan (LoadOptions.plan) tiled it. */
  planner: 'default' | 'search' | 'file';
  /** The search ran; the fields from searchPath to defaultExposureMs are zero or "" otherwise. */
  searched: boolean;
  /** The search ran and the simulator did not predict its plan 3 % faster: the default's is used. */
  keptDefault: boolean;
  /** The search priced tiles from a profile (false: uncalibrated guesses, or no search). */
  calibrated: boolean;
  /** The thread count planned for. */
  threads: number;
  /** How the search solved what node and edge elimination left. */
  searchPath: '' | 'elimination' | 'variable elimination' | 'local search';
  configurations: number;
  nodesEliminated: number;
  edgesEliminated: number;
  coreNodes: number;
  /** The search and the simulator's check of its plan. */
  planningMs: number;
  /** Simulated latency of the tiling in use, with arena reuse. */
  predictedMs: number;
  /** Simulated latency of the default plan. */
  defaultPredictedMs: number;
  /** What a thread slowed by other work would add: every node's longest tile times the planner's
   *  interference share (docs/planning.md). A searched plan must win with and without it. */
  exposureMs: number;
  defaultExposureMs: number;
  /** The arena shares bytes between tensors; on several threads the search turns this off where
   *  the plan is predicted more than 5 % faster without (no writes over lines another core
   *  read, no reuse edges ordering its tiles). */
  reuseMemory: boolean;
  /** Simulated latency of the tiling in use without reuse (0: not weighed). */
  noReusePredictedMs: number;
  nodes: NodePlan[];
}

/**
 * A plan file (Model.savePlan): one specialisation's tiling, for the model and input dims it
 * names. Store it as JSON and give it back as it is (LoadOptions.plan).
 */
export interface SavedPlan {
  format: 'tessera-plan';
  version: number;
  model: string;
  inputs: Array<{ name: string; dims: number[] }>;
  threads: number;
  planner: string;
  /** Whether the arena shares bytes between tensors (absent: true). */
  reuse_memory?: boolean;
  nodes: Array<{ name: string; op: string; shape: number[]; cuts: number[][] }>;
}

/** Chrome / Perfetto trace JSON: one complete event ("ph": "X") per tile, one track per thread. */
export interface Trace {
  traceEvents: Array<Record<string, unknown>>;
  displayTimeUnit: string;
  otherData: Record<string, unknown>;
}

/** One step of a download: `loaded` bytes of `total` (the last event has loaded === total). */
export interface LoadProgress {
  file: 'json' | 'weights';
  url: string;
  loaded: number;
  total: number;
  /** Read from the Cache API rather than the network. */
  cached: boolean;
}

export type Weights = ArrayBuffer | Uint8Array | URL;

export interface LoadOptions {
  weights?: Weights;
  /** Called after each chunk of a file fetched from a URL. */
  onProgress?: (progress: LoadProgress) => void;
  /**
   * Keep fetched files in the browser's Cache API (cache "tessera-models", keyed by URL), so a
   * later load of the same URL makes no request. Version your model URLs. No effect in Node.
   */
  cache?: boolean;
  /**
   * How tiles are cut (docs/planning.md): "default" (a heuristic), "search" (each node's tiling
   * searched on the cost model, priced from the engine's profile, from calibrate() or
   * setProfile(), else from uncalibrated guesses; the searched plan is used when the simulator
   * predicts it faster than the default's), or "auto", the default: "search" once the engine
   * has a calibrated profile, "default" before.
   */
  planner?: 'auto' | 'default' | 'search';
  /** The scheduler the search plans for; default "dynamic". */
  planScheduler?: 'dynamic' | 'barrier';
  /**
   * A saved plan (Model.savePlan, or its JSON text): it tiles the specialisation for the input
   * dims it names, and is checked against the model then (its name, each node's name, op and
   * shape, the cuts), naming what differs. For a model whose dims are all fixed that is at
   * load, and a plan for other dims is refused; other dims are planned by `planner`.
   */
  plan?: SavedPlan | string;
}

/** How a model is placed over workers (docs/placement.md). */
export interface WorkerOptions {
  /** Workers (engines of their own, each its own WebAssembly instance): 1 to 64. */
  workers: number;
  /**
   * What each may hold, all told: bytes or a size such as "256MiB", at least 64 MiB; 0: no limit.
   * A worker keeps its stage's weights twice (loaded and packed) beside its activations and
   * runtime, and its memory is capped at this size (threaded build).
   */
  workerMemory?: number | string;
  /** One input's latency (default) or a stream's period. */
  objective?: 'latency' | 'throughput';
  /** Threads in all, shared by the workers; default the engine's (each worker at least one). */
  threads?: number;
  weights?: Weights;
}

export interface StagePlacement {
  worker: number;
  threads: number;
  /** Compiled nodes; split layers' pieces are "NAME/0", "NAME/1", ... */
  nodes: string[];
  computeMs: number;
  transferMs: number;
  weightBytes: number;
  memoryBytes: number;
  bytesIn: number;
  bytesOut: number;
}

export interface Placement {
  objective: 'latency' | 'throughput';
  workers: number;
  threadsPerWorker: number;
  workerMemory: number;
  calibrated: boolean;
  /** The crossings were priced from measured transfers (calibrate()), not estimated. */
  transferCalibrated: boolean;
  latencyMs: number;
  periodMs: number;
  /** The alternatives: one instance with all the threads (0: does not fit), one per worker. */
  singleMs: number;
  replicasPeriodMs: number;
  /** What the predictions favour: "stages", "single" or "replicas". */
  choice: string;
  /** Layers larger than half a worker, split into column pieces. */
  splitNodes: number;
  coarsening: string;
  planningMs: number;
  stages: StagePlacement[];
}

/** A model over workers: each stage a model of its own with only its weights. */
export class StagedModel {
  readonly name: string;
  readonly inputs: ValueSpec[];
  readonly outputs: ValueSpec[];
  readonly placement: Placement;
  /** One input through the stages in turn; outputs bitwise one engine's. */
  run(inputs: Record<string, InputTensor>): Promise<Record<string, OutputTensor>>;
  /** Inputs through the stages at once; outputs in the inputs' order. */
  runStream(inputs: Iterable<Record<string, InputTensor>> | AsyncIterable<Record<string, InputTensor>>):
    AsyncIterable<Record<string, OutputTensor>>;
  /** Each worker's memory, in worker order (the stages' order). */
  memoryUsage(): Promise<{ wasmBytes: number; heapInUseBytes: number }[]>;
  dispose(): Promise<void>;
}

export class Model {
  readonly name: string;
  readonly inputs: ValueSpec[];
  readonly outputs: ValueSpec[];
  /** Symbolic dims bind per run; the first run at new dims specialises the model (then cached). */
  run(inputs: Record<string, InputTensor>, options?: RunOptions): Promise<Record<string, OutputTensor>>;
  /** The compiled model of the last run (or of the declared dims when all are fixed). */
  inspect(): ModelInfo;
  /** The tile timeline of the last run made with `{ trace: true }`. */
  trace(): Trace;
  /**
   * The cost model's latency and per-node times for the compiled model inspect() describes
   * (a model with symbolic dims must have run once).
   */
  predict(options?: PredictOptions): Promise<Prediction>;
  /**
   * How the compiled model inspect() describes was tiled, and what the planner predicted (a
   * model with symbolic dims must have run once).
   */
  plan(): Promise<PlanReport>;
  /** That tiling as a plan file, for LoadOptions.plan. */
  savePlan(): Promise<SavedPlan>;
  dispose(): Promise<void>;
}

export class Engine {
  readonly threads: number;
  readonly features: EngineFeatures;
  /**
   * Compiles a model. `json`: an object, its text, or a URL. `weights`: bytes or a URL; for
   * JSON given as a URL, by default the file its "weights" field names (else the .bin beside it).
   * Files named by URLs are fetched by the engine's worker and stream into its memory.
   */
  loadModel(json: object | string | URL, weights?: Weights | null, options?: LoadOptions): Promise<Model>;
  loadModel(json: object | string | URL, options: LoadOptions): Promise<Model>;
  /**
   * Places a model over workers (needs fixed dims): planned from its shapes, then each stage
   * loaded in an engine of its own with only the weights it reads (from bytes, a file: URL in
   * Node, or HTTP ranges of a URL), so a model larger than one instance's 4 GiB runs.
   */
  loadModel(json: object | string | URL, weights: Weights | null | undefined, options: WorkerOptions):
    Promise<StagedModel>;
  loadModel(json: object | string | URL, options: WorkerOptions): Promise<StagedModel>;
  /** How loadModel's workers option would split a model, without loading it. */
  place(json: object | string | URL, weights: Weights | null | undefined, options: WorkerOptions): Promise<Placement>;
  place(json: object | string | URL, options: WorkerOptions): Promise<Placement>;
  /**
   * Measures this machine for the cost model, in this build and on this engine's threads,
   * and the transfers between workers: up to a minute or two, `quick` a few seconds; other
   * calls wait meanwhile. The engine keeps the profile for its models' predict() and place().
   */
  calibrate(options?: { quick?: boolean }): Promise<Profile>;
  /** The profile predict() uses from now on (from calibrate, of this build); null: none. */
  setProfile(profile: Profile | null): Promise<void>;
  /** The WebAssembly memory's size and the bytes its allocator holds. */
  memoryUsage(): Promise<{ wasmBytes: number; heapInUseBytes: number }>;
  /** Frees the models and the engine and stops its worker and threads; a second call does nothing. */
  dispose(): Promise<void>;
}

export function createEngine(options?: EngineOptions): Promise<Engine>;

/** Deletes the model files that `{ cache: true }` kept; resolves true when there were any. */
export function clearModelCache(): Promise<boolean>;
