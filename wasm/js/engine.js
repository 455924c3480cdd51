// The engine's JS API. The WebAssembly module lives in a host worker (worker_threads in
// Node, a Worker in browsers), so inference never blocks the caller's thread; every method
// that reaches it returns a promise, and calls run in the order they were made.
import { simd, threads as wasmThreads } from 'wasm-feature-detect';

import { elementCount } from './dims.js';
import { dtypeOfArray } from './dtypes.js';
import { TesseraError } from './errors.js';
import { HostChannel } from './host/channel.js';
import { kMinMaximumMemory, PREDICTED_SCHEDULERS, SCHEDULERS } from './host/core_engine.js';
import { kCacheName } from './host/model_files.js';
import { ownBuffer } from './own_buffer.js';
import { loadArguments, loadRequest } from './sources.js';
import { loadStagedModel, placeModel } from './staged_model.js';
import { measureTransfer } from './transfer_costs.js';

const kMaxThreads = 64;

/** createEngine(options) on a platform (platform/browser.js, platform/node.js): an entry's export. */
export const engineFactory = (platform) => (options) => createEngine(platform, options);

/** Deletes the model files `{ cache: true }` kept; true when there were any. */
export async function clearModelCache() {
  return (await globalThis.caches?.delete(kCacheName)) ?? false;
}

/**
 * Creates an engine: a host worker with the WebAssembly module and `threads` executor threads.
 * @param {{ threads?: number, wasm?: 'auto' | 'threads' | 'single', assetsUrl?: string | URL,
 *           maximumMemory?: number }} [options]
 *   assetsUrl: in browsers, the directory holding a copy of the package's wasm/dist/ files,
 *   for bundlers that do not copy them (esbuild) or a CDN
 *   maximumMemory: bytes the engine's WebAssembly memory may grow to (at least 64 MiB; the
 *   threaded build only): past it, loading and running fail as out of memory
 */
async function createEngine(platform, options = {}) {
  const { crossOriginIsolated, defaultThreads, startHost } = platform;
  const { wasm = 'auto' } = options;
  if (!['auto', 'threads', 'single'].includes(wasm)) {
    throw new TypeError(`createEngine: wasm must be "auto", "threads" or "single", got ${JSON.stringify(wasm)}`);
  }
  const assetsUrl = directoryUrl(options.assetsUrl);
  const requested = options.threads ?? Math.min(defaultThreads() || 4, 16);
  if (!Number.isInteger(requested) || requested < 1 || requested > kMaxThreads) {
    throw new TypeError(`createEngine: threads must be an integer from 1 to ${kMaxThreads}, got ${requested}`);
  }
  const features = {
    simd: await simd(),
    threads: await wasmThreads(),  // shared memory usable: cross-origin isolated in browsers
    crossOriginIsolated: crossOriginIsolated(),
  };
  if (!features.simd) {
    throw new TesseraError('this JavaScript engine has no WebAssembly SIMD, which Tessera needs ' +
                           '(Chrome 91, Firefox 89, Safari 16.4, Node 16.4 or later)');
  }
  if (wasm === 'threads' && !features.threads) {
    throw new TesseraError('the threaded build needs SharedArrayBuffer: serve the page cross-origin isolated ' +
                           '(Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp)');
  }
  const flavour = wasm === 'auto' ? (features.threads ? 'threads' : 'single') : wasm;
  const { maximumMemory } = options;
  if (maximumMemory !== undefined) {
    if (!Number.isInteger(maximumMemory) || maximumMemory < kMinMaximumMemory || maximumMemory > 2 ** 32) {
      throw new TypeError(`createEngine: maximumMemory must be a number of bytes from ${kMinMaximumMemory} ` +
                          `(64 MiB) to 2^32, got ${maximumMemory}`);
    }
    if (flavour !== 'threads') {
      throw new TesseraError('createEngine: maximumMemory needs the threaded build (the single-threaded one ' +
                             'sets its own memory)');
    }
  }
  if (wasm === 'auto' && flavour === 'single') {
    console.warn('tessera: SharedArrayBuffer is unavailable (the page is not cross-origin isolated): ' +
                 'running the single-threaded build');
  }
  const channel = new HostChannel((listeners) => startHost({ assetsUrl }, listeners));
  try {
    const { threads } = await channel.call('init', { flavour, threads: flavour === 'single' ? 1 : requested,
                                                     assetsUrl: assetsUrl?.href, maximumMemory });
    // More engines like this one, for the workers of a model placed over them: a threaded
    // one's memory capped at the worker's.
    const spawn = (workerThreads, workerMemory = 0) => createEngine(platform, {
      ...options, wasm: flavour, threads: workerThreads,
      maximumMemory: flavour === 'threads' && workerMemory > 0 ? workerMemory : undefined });
    return new Engine(channel, threads, { ...features, build: flavour }, { spawn, openFile: platform.openFile });
  } catch (error) {
    channel.terminate();
    throw error;
  }
}

// A directory's URL relative to the page, with the trailing slash that makes files resolve
// inside it. Outside browsers (no location) there is nothing to place: Node loads the files
// from the installed package.
function directoryUrl(value) {
  if (value === undefined || value === null || !globalThis.location) return null;
  let url;
  try {
    url = new URL(value, globalThis.location.href);
  } catch {
    throw new TypeError(`createEngine: assetsUrl must be a URL, got ${JSON.stringify(String(value))}`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// A profile object as the core reads it; what it holds is checked there.
function profileText(profile, what) {
  if (profile === null || typeof profile !== 'object' || Array.isArray(profile)) {
    throw new TypeError(`${what}: profile must be an object from engine.calibrate(), got ${JSON.stringify(profile)}`);
  }
  return JSON.stringify(profile);
}

// The planner's load options as the host takes them (the plan as JSON text); the planner's
// name and the plan itself are checked by the core.
function planningOptions({ planner, planScheduler, plan }) {
  if (planner !== undefined && typeof planner !== 'string') {
    throw new TypeError(`loadModel: planner must be a string ("auto", "default" or "search"), got ${JSON.stringify(planner)}`);
  }
  if (planScheduler !== undefined && !PREDICTED_SCHEDULERS.includes(planScheduler)) {
    throw new TypeError(`loadModel: planScheduler must be one of ${PREDICTED_SCHEDULERS.join(', ')}, ` +
                        `got ${JSON.stringify(planScheduler)}`);
  }
  const isObject = plan !== null && typeof plan === 'object' && !Array.isArray(plan);
  if (plan !== undefined && typeof plan !== 'string' && !isObject) {
    throw new TypeError('loadModel: plan must be a saved plan (an object from model.savePlan(), or its JSON text), ' +
                        `got ${JSON.stringify(plan)}`);
  }
  return { planner, planScheduler, plan: isObject ? JSON.stringify(plan) : plan };
}

export class Engine {
  #channel;
  #models = new Set();
  #disposed = false;

  #workers;

  constructor(channel, threads, features, workers) {
    this.#channel = channel;
    this.#workers = workers;
    /** Executor threads (1 with the single-threaded build). */
    this.threads = threads;
    /** What was detected and which build runs: { simd, threads, crossOriginIsolated, build }. */
    this.features = features;
  }

  /**
   * Compiles a model for this engine's threads.
   * @param json the model JSON: an object, its text, or a URL
   * @param [weights] ArrayBuffer, Uint8Array or URL; for JSON from a URL, by default the file
   *   its "weights" field names (else the .bin beside it). May be left out for the options.
   * @param [options] { weights?, onProgress?, cache?, planner?, planScheduler?, plan? }:
   *   onProgress({ file: 'json' | 'weights', url, loaded, total, cached }) after each chunk of
   *   a file fetched from a URL; cache keeps fetched files in the browser's Cache API
   *   ('tessera-models'), by URL; planner 'default' (a heuristic), 'search' (tilings searched
   *   on the cost model, from the engine's profile: calibrate(), setProfile()) or 'auto' (the
   *   default: 'search' once the engine's profile is calibrated); planScheduler
   *   'dynamic' or 'barrier', what the search plans for; plan a saved plan (savePlan(), or its
   *   JSON text) that tiles the specialisation for the input dims it names. With
   *   { workers, workerMemory?, objective?, threads? } instead, the model is placed over that
   *   many workers, each an engine of its own holding one stage (a StagedModel,
   *   docs/placement.md)
   */
  async loadModel(json, weights, options) {
    const given = loadArguments(weights, options);
    if (given.workers !== undefined) return this.#loadStaged(json, given.weights, given);
    const { request, transfer, onProgress } = loadRequest(json, weights, options);
    request.planning = planningOptions(given);
    const { id, signature, info } = await this.#channel.call('loadModel', request, transfer, onProgress);
    if (this.#disposed) throw new TesseraError('the engine was disposed');  // while the load finished
    const model = new Model(this.#channel, id, signature, info, this.threads, () => this.#models.delete(model));
    this.#models.add(model);
    return model;
  }

  // A model over workers (staged_model.js), planned with this engine's profile.
  async #loadStaged(json, weights, options) {
    const model = await loadStagedModel(await this.#placing(options), json, weights, options);
    if (this.#disposed) {
      await model.dispose();
      throw new TesseraError('the engine was disposed');
    }
    model.onDispose(() => this.#models.delete(model));
    this.#models.add(model);
    return model;
  }

  /**
   * How loadModel's workers option would split a model, without loading it: the placement
   * report a placed model's `placement` holds (stages with their nodes, predicted times,
   * memory and bytes crossing the cuts; latency, period and the alternatives).
   * @param json, weights as loadModel takes them
   * @param options { workers, workerMemory?, objective?, threads? }
   */
  async place(json, weights, options) {
    const given = loadArguments(weights, options);
    return placeModel(await this.#placing(given), json, given.weights, given);
  }

  // What planning over workers needs from this engine: its profile, threads and platform.
  async #placing(options) {
    const profile = await this.#channel.call('profile');
    return { ...this.#workers, profile, threads: options.threads ?? this.threads };
  }

  /** @internal the channel to this engine's worker, for the models placed over engines */
  channel() {
    return this.#channel;
  }

  /**
   * Measures this machine for the cost model: Tessera's kernels and runtime in this build, the
   * shared bandwidth and hand-overs on this engine's threads (the engine's other calls wait
   * meanwhile), then what a tensor crossing between workers costs (round trips through this
   * engine's worker: calls made then run between them, and slow them down). Takes up to a
   * minute or two (quick: a few seconds, coarser). The engine keeps the profile for its
   * models' predict() and for placing models over workers; until calibrate() resolves, they
   * may see it without its transfers.
   * @param {{ quick?: boolean }} [options]
   * @returns the profile (names the build, ISA and date), for setProfile() later
   */
  async calibrate({ quick = false } = {}) {
    const profile = JSON.parse(await this.#channel.call('calibrate', { quick: Boolean(quick) }));
    profile.transfer = await measureTransfer(this.#channel, Boolean(quick));
    await this.#channel.call('setProfile', { profile: JSON.stringify(profile) });
    return profile;
  }

  /**
   * Makes `profile` (what calibrate() returned, perhaps in an earlier session, of the same
   * build) the one its models' predict() uses from now on; null forgets it. What it holds is
   * checked by predict().
   */
  async setProfile(profile) {
    await this.#channel.call('setProfile', { profile: profile === null ? '' : profileText(profile, 'setProfile') });
  }

  /** { wasmBytes, heapInUseBytes }: the module's memory and what its allocator holds. */
  memoryUsage() {
    return this.#channel.call('memoryUsage');
  }

  /** Frees the models and the engine and stops its worker and threads. Again: nothing. */
  async dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    const models = [...this.#models];
    this.#models.clear();
    await Promise.all(models.map((model) => model.markDisposed()));  // a staged model's workers go too
    try {
      await this.#channel.call('dispose');
    } finally {
      this.#channel.terminate();
    }
  }
}

export class Model {
  #channel;
  #id;
  #info;
  #trace = null;
  #disposed = false;
  #engineThreads;
  #onDispose;

  constructor(channel, id, signature, info, engineThreads, onDispose) {
    this.#channel = channel;
    this.#id = id;
    this.#info = info;
    this.#engineThreads = engineThreads;
    this.#onDispose = onDispose;
    this.name = signature.name;
    /** [{ name, dtype, dims }]: a dim is a number or a symbol's name ("batch", "seq") */
    this.inputs = signature.inputs;
    /** [{ name, dtype, dims }] as declared; a run's outputs carry their actual dims */
    this.outputs = signature.outputs;
  }

  /**
   * Runs the model. Symbolic dims are bound from the inputs' dims; the first run at new dims
   * specialises the model (later runs at those dims reuse it).
   * @param inputs { [inputName]: TypedArray | { data: TypedArray, dims: number[] } } with
   *   Float32Array (float32), BigInt64Array (int64), Int32Array (int32), Uint8Array (bool, uint8)
   * @param {{ trace?: boolean, scheduler?: 'dynamic' | 'barrier' | 'shuffle' }} [options]
   *   trace records the tile timeline for trace()
   * @returns { [outputName]: { data: TypedArray, dims: number[], dtype: string } }
   */
  run(inputs, options = {}) {
    return this.#run(inputs, options, new Set());
  }

  /**
   * @internal run() on inputs whose buffers named in `handOver` (each a whole buffer) are
   * transferred to the worker rather than copied, leaving them detached here: a staged model's
   * tensors on their way to the last stage that reads them
   */
  runHandingOver(inputs, handOver) {
    return this.#run(inputs, {}, handOver);
  }

  async #run(inputs, options, handOver) {
    if (this.#disposed) throw new TesseraError('the model was disposed');
    const { trace = false, scheduler = 'dynamic' } = options;
    if (!SCHEDULERS.includes(scheduler)) {
      throw new TypeError(`run: scheduler must be one of ${SCHEDULERS.join(', ')}, got ${JSON.stringify(scheduler)}`);
    }
    const transfer = [];
    const given = this.#checkInputs(inputs).map(({ name, dtype, dims, data }) => {
      const own = ownBuffer(data);
      if (own.owned || handOver.has(name)) transfer.push(own.view.buffer);
      return { name, dtype, dims, data: own.view };
    });
    const { outputs, info, traceJson } = await this.#channel.call(
      'run', { model: this.#id, inputs: given, options: { trace: Boolean(trace), scheduler } }, transfer);
    if (info) this.#info = info;  // null: the same specialisation as the last run
    if (traceJson) this.#trace = traceJson;
    return Object.fromEntries(outputs.map(({ name, dtype, dims, data }) => [name, { data, dims, dtype }]));
  }

  /**
   * The compiled model (of the last run's input dims, or of the declared dims when they are
   * all fixed): inputs, outputs, nodes (op, kernel, fused epilogue, shape, layout, tile grid,
   * tiles, FLOPs), totals (flops, tiles, edges, critical path), memory (arena_bytes,
   * tensor_bytes, weight_bytes) and compile_ms.
   */
  inspect() {
    if (!this.#info) {
      throw new TesseraError('the model has symbolic dims: inspect() describes the last run, and there was none yet');
    }
    return structuredClone(this.#info);
  }

  /**
   * What the cost model predicts for the compiled model inspect() describes: latency, critical
   * path, idle time per thread, and per node the sum of its tiles' times (what a trace gives).
   * @param {{ threads?: number, scheduler?: 'dynamic' | 'barrier', profile?: object }} [options]
   *   threads: default the engine's; profile: default the engine's (calibrate(), setProfile()),
   *   without which the numbers are uncalibrated guesses
   * @returns {{ calibrated, profile, threads, scheduler, latencyMs, criticalPathMs, idleMs,
   *   nodes: [{ name, op, ms }] }} with profile the one used ("uncalibrated" for none)
   */
  async predict(options = {}) {
    if (this.#disposed) throw new TesseraError('the model was disposed');
    const { threads = this.#engineThreads, scheduler = 'dynamic', profile } = options;
    if (!Number.isInteger(threads) || threads < 1) {
      throw new TypeError(`predict: threads must be an integer of at least 1, got ${threads}`);
    }
    if (!PREDICTED_SCHEDULERS.includes(scheduler)) {
      throw new TypeError(`predict: scheduler must be one of ${PREDICTED_SCHEDULERS.join(', ')}, ` +
                          `got ${JSON.stringify(scheduler)}`);
    }
    const given = profile === undefined ? null : profileText(profile, 'predict');  // null: the engine's
    const p = await this.#channel.call('predict', { model: this.#id, threads, scheduler, profile: given });
    return { calibrated: p.calibrated, profile: p.profile, threads: p.threads, scheduler: p.scheduler,
             latencyMs: p.latency_ms, criticalPathMs: p.critical_path_ms, idleMs: p.idle_ms, nodes: p.nodes };
  }

  /**
   * How the compiled model inspect() describes was tiled, and what the planner predicted.
   * @returns {{ planner, searched, keptDefault, calibrated, threads, searchPath, configurations,
   *   nodesEliminated, edgesEliminated, coreNodes, planningMs, predictedMs, defaultPredictedMs,
   *   exposureMs, defaultExposureMs, reuseMemory, noReusePredictedMs,
   *   nodes: [{ name, op, grid, defaultGrid, predictedMs, defaultMs }] }} with planner 'default',
   *   'search' or 'file' (a saved plan), and the search's numbers zero when it did not run
   */
  async plan() {
    if (this.#disposed) throw new TesseraError('the model was disposed');
    const r = await this.#channel.call('plan', { model: this.#id, what: 'report' });
    return {
      planner: r.planner, searched: r.searched, keptDefault: r.kept_default, calibrated: r.calibrated,
      threads: r.threads, searchPath: r.search_path, configurations: r.configurations,
      nodesEliminated: r.nodes_eliminated, edgesEliminated: r.edges_eliminated, coreNodes: r.core_nodes,
      planningMs: r.planning_ms, predictedMs: r.predicted_ms, defaultPredictedMs: r.default_predicted_ms,
      exposureMs: r.exposure_ms, defaultExposureMs: r.default_exposure_ms,
      reuseMemory: r.reuse_memory, noReusePredictedMs: r.no_reuse_predicted_ms,
      nodes: r.nodes.map((n) => ({ name: n.name, op: n.op, grid: n.grid, defaultGrid: n.default_grid,
                                   algorithm: n.algorithm,
                                   predictedMs: n.predicted_ms, defaultMs: n.default_ms })),
    };
  }

  /**
   * The tiling of the compiled model inspect() describes, as a plan file: a plain object to
   * store (JSON) and give back to loadModel's plan option.
   */
  async savePlan() {
    if (this.#disposed) throw new TesseraError('the model was disposed');
    return this.#channel.call('plan', { model: this.#id, what: 'file' });
  }

  /** The tile timeline of the last run made with { trace: true }, as Chrome trace JSON. */
  trace() {
    if (!this.#trace) throw new TesseraError('no traced run yet: call run(inputs, { trace: true }) first');
    return JSON.parse(this.#trace);
  }

  async dispose() {
    if (this.#disposed) return;
    this.markDisposed();
    this.#onDispose();
    await this.#channel.call('disposeModel', { model: this.#id });
  }

  /** @internal the engine went away with it */
  markDisposed() {
    this.#disposed = true;
  }

  // Array types, dtypes and sizes checked here (JS types are a JS matter); names, dtypes and
  // dims against the model are checked by the core.
  #checkInputs(inputs) {
    if (inputs === null || typeof inputs !== 'object') {
      throw new TypeError('run: inputs must be an object { [inputName]: TypedArray | { data, dims } }');
    }
    return Object.entries(inputs).map(([name, value]) => {
      const given = ArrayBuffer.isView(value) ? { data: value } : value ?? {};
      const declared = this.inputs.find((input) => input.name === name);
      const dtype = dtypeOfArray(given.data, declared?.dtype);
      if (!dtype) {
        const type = given.data?.constructor?.name ?? (Array.isArray(value) ? 'Array' : typeof value);
        throw new TesseraError(`input "${name}": expected a Float32Array, BigInt64Array, Int32Array or Uint8Array, ` +
                               `got ${type}`);
      }
      if (declared && declared.dtype !== dtype) {
        throw new TesseraError(`input "${name}": expected ${declared.dtype} data, got ${dtype} ` +
                               `(a ${given.data.constructor.name})`);
      }
      const symbolic = declared?.dims.some((d) => typeof d === 'string');
      if (!given.dims && symbolic) {
        throw new TesseraError(`input "${name}" has symbolic dims [${declared.dims.join(', ')}]: ` +
                               'pass { data, dims } with its dims');
      }
      const dims = given.dims ?? declared?.dims ?? [given.data.length];
      if (!Array.isArray(dims) || !dims.every((d) => Number.isSafeInteger(d) && d >= 0)) {
        throw new TesseraError(`input "${name}": dims must be a list of non-negative integers, got ${JSON.stringify(dims)}`);
      }
      if (elementCount(dims) !== given.data.length) {
        throw new TesseraError(`input "${name}": has ${given.data.length} values, dims [${dims.join(', ')}] ` +
                               `need ${elementCount(dims)}`);
      }
      return { name, dtype, dims, data: given.data };
    });
  }
}
