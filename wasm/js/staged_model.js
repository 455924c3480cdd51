// A model placed over workers (docs/placement.md): the core plans the stages from the model's
// shapes alone, in an engine of its own that then goes, and cuts each stage into a model of
// its own (a model per segment when a stage's nodes are not contiguous); each worker is an
// engine of its own (its own WebAssembly instance, so its own 4 GiB) holding only its stage's
// weights, its memory capped at the worker's (threaded build). Tensors crossing a cut travel
// by postMessage through this thread, transferred to the last stage that reads them.
import { TesseraError } from './errors.js';
import { kMinMaximumMemory } from './host/core_engine.js';
import { weightsBeside } from './host/model_files.js';
import { jsonSource } from './sources.js';
import { bytesSource, gather, readText, urlSource } from './weight_source.js';

const kObjectives = ['latency', 'throughput'];
const kUnits = { B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 };

/** `workerMemory` as bytes: a number, or text such as '256MiB' (KiB, MiB, GiB); 0: no limit. */
export function parseWorkerMemory(value) {
  if (value === undefined || value === null) return 0;
  if (Number.isSafeInteger(value) && value >= 0) return value;
  const match = typeof value === 'string' && /^\s*(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB)\s*$/.exec(value);
  if (!match) {
    throw new TypeError('loadModel: workerMemory must be a number of bytes or a size such as "256MiB" ' +
                        `(KiB, MiB, GiB), got ${JSON.stringify(value)}`);
  }
  return Math.round(Number(match[1]) * kUnits[match[2]]);
}

function placeOptions({ workers, workerMemory, objective = 'latency' }, threads) {
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new TypeError(`loadModel: workers must be an integer from 1 to 64, got ${JSON.stringify(workers)}`);
  }
  if (!Number.isInteger(threads) || threads < 1 || threads > 1024) {
    throw new TypeError(`loadModel: threads must be an integer from 1 to 1024, got ${JSON.stringify(threads)}`);
  }
  if (!kObjectives.includes(objective)) {
    throw new TypeError(`loadModel: objective must be "latency" or "throughput", got ${JSON.stringify(objective)}`);
  }
  const memory = parseWorkerMemory(workerMemory);
  if (memory > 0 && memory < kMinMaximumMemory) {
    throw new TypeError('loadModel: workerMemory must be 0 (no limit) or at least 64 MiB, the memory a ' +
                        `WebAssembly worker starts with; got ${memory} bytes`);
  }
  return { workers, threads: Math.max(threads, workers), worker_memory: memory, objective };
}

// The JSON's text and the weights as sources that read in parts.
async function sources(json, weights, openFile) {
  const given = jsonSource(json);
  const jsonUrl = given.url ? new URL(given.url) : null;
  const jsonText = jsonUrl ? await readText(await urlSource(jsonUrl, openFile, 'model JSON')) : given.text;
  let parsed;
  try {
    parsed = JSON.parse(jsonText);
  } catch (error) {
    throw new TesseraError(`model JSON is malformed: ${error.message}`);
  }
  if (weights instanceof ArrayBuffer || ArrayBuffer.isView(weights)) return { jsonText, parsed, weights: bytesSource(weights) };
  if (weights instanceof URL) return { jsonText, parsed, weights: await urlSource(weights, openFile, 'weights') };
  if (weights !== undefined && weights !== null) {
    throw new TypeError('loadModel: weights must be an ArrayBuffer, a Uint8Array or a URL');
  }
  const beside = jsonUrl && parsed.initializers?.length > 0 ? weightsBeside(jsonUrl.href, jsonText) : null;
  if (!beside) return { jsonText, parsed, weights: bytesSource(new Uint8Array(0)) };
  return { jsonText, parsed, weights: await urlSource(new URL(beside.url), openFile, 'weights') };
}

// The core's placement and stage models, planned in an engine of its own (the stand-ins for
// the weights it leaves out take memory that a WebAssembly instance never gives back).
async function planStages({ spawn, profile, threads, openFile }, json, weights, options) {
  const place = placeOptions(options, threads);
  const { jsonText, parsed, weights: source } = await sources(json, weights, openFile);
  const planner = await spawn(1);
  try {
    const channel = planner.channel();
    await channel.call('setProfile', { profile });  // the caller's engine's, as JSON text
    const { extents, bytes } = await channel.call('planningExtents', { jsonText, weightsBytes: source.size });
    const read = await gather(source, extents, bytes, 'weights');
    const plan = await channel.call('placeStages', { jsonText, weightsBytes: source.size, read, options: place },
                                    [read.buffer]);
    return { parsed, source, plan };
  } finally {
    await planner.dispose();
  }
}

/** The placement of a model over workers (engine.place), without loading it. */
export async function placeModel(context, json, weights, options) {
  return placementReport((await planStages(context, json, weights, options)).plan.placement);
}

/**
 * Loads a model over `options.workers` engines made by `spawn(threads, memory)`, planned with
 * `profile` (JSON text, '' for none) for `threads` threads in all.
 */
export async function loadStagedModel(context, json, weights, options) {
  const { parsed, source, plan } = await planStages(context, json, weights, options);
  // One engine per worker: a worker whose nodes are not contiguous loads a model per segment.
  const engines = new Map();  // worker -> engine
  const stages = [];
  try {
    for (const [index, stage] of plan.stages.entries()) {
      if (!engines.has(stage.worker)) {
        engines.set(stage.worker, await context.spawn(stage.threads, plan.placement.worker_memory));
      }
      const engine = engines.get(stage.worker);
      const stageWeights = await gather(source, stage.weights, stage.weight_bytes, `stage ${index}'s weights`);
      const model = await engine.loadModel(stage.json, stageWeights);
      stages.push({ model, inputs: stage.inputs, outputs: stage.outputs });
    }
  } catch (error) {
    await Promise.all([...engines.values()].map((engine) => engine.dispose()));
    throw error;
  }
  const byWorker = [...engines.entries()].sort(([a], [b]) => a - b).map(([, engine]) => engine);
  return new StagedModel(parsed, plan.placement, stages, byWorker);
}

// The placement report with the JS API's names.
function placementReport(p) {
  return {
    objective: p.objective, workers: p.workers, threadsPerWorker: p.threads_per_worker,
    workerMemory: p.worker_memory, calibrated: p.calibrated, transferCalibrated: p.transfer_calibrated, latencyMs: p.latency_ms, periodMs: p.period_ms,
    singleMs: p.single_ms, replicasPeriodMs: p.replicas_period_ms, choice: p.choice, splitNodes: p.split_nodes,
    coarsening: p.coarsening, planningMs: p.planning_ms,
    stages: p.stages.map((s) => ({ worker: s.worker, threads: s.threads, nodes: s.nodes, computeMs: s.compute_ms,
                                   transferMs: s.transfer_ms, weightBytes: s.weight_bytes,
                                   memoryBytes: s.memory_bytes, bytesIn: s.bytes_in, bytesOut: s.bytes_out })),
  };
}

// Each stage with `handOver`: the tensors it reads that earlier stages made and that neither a
// later stage nor the caller (`declared`, the model's outputs) needs, so they go to its worker
// without a copy. The caller's inputs stay the caller's.
function withHandOver(stages, declared) {
  const lastReader = new Map();
  stages.forEach((stage, index) => stage.inputs.forEach((name) => lastReader.set(name, index)));
  const made = new Set(stages.flatMap((stage) => stage.outputs));
  return stages.map((stage, index) => ({
    ...stage,
    handOver: new Set(stage.inputs.filter((name) => made.has(name) && !declared.has(name) &&
                                                    lastReader.get(name) === index)),
  }));
}

export class StagedModel {
  #stages;
  #engines;  // one per worker, in worker order
  #disposed = false;
  #onDispose = () => {};

  constructor(parsed, placement, stages, engines) {
    this.#engines = engines;
    this.name = parsed.name ?? '';
    const value = ({ name, dtype = 'float32', shape }) => ({ name, dtype, dims: shape });
    this.inputs = parsed.inputs.map(value);
    this.outputs = parsed.outputs.map(value);
    this.#stages = withHandOver(stages, new Set(this.outputs.map(({ name }) => name)));
    /** How the model was split: the stages, their predicted times and memory, latency and period. */
    this.placement = placementReport(placement);
  }

  /**
   * Runs one input through the stages in turn; the outputs are bitwise those of one engine.
   * @param inputs as Model.run takes them
   */
  async run(inputs) {
    if (this.#disposed) throw new TesseraError('the model was disposed');
    if (inputs === null || typeof inputs !== 'object') {
      throw new TypeError('run: inputs must be an object { [inputName]: TypedArray | { data, dims } }');
    }
    for (const name of Object.keys(inputs)) {
      if (!this.inputs.some((input) => input.name === name)) {
        throw new TesseraError(`input "${name}": the model has no such input`);
      }
    }
    for (const { name } of this.inputs) {
      if (!(name in inputs)) throw new TesseraError(`input "${name}": missing`);
    }
    const pool = new Map(Object.entries(inputs));
    for (const stage of this.#stages) {
      const given = Object.fromEntries(stage.inputs.map((name) => [name, pool.get(name)]));
      const outputs = await stage.model.runHandingOver(given, stage.handOver);
      for (const [name, value] of Object.entries(outputs)) pool.set(name, value);
    }
    return Object.fromEntries(this.outputs.map(({ name }) => [name, pool.get(name)]));
  }

  /**
   * Runs a stream of inputs through the stages at once (stage k on input i while stage k + 1
   * is on input i - 1), at most one input per stage in flight beyond the one being read.
   * @param inputs an iterable or async iterable of what run() takes
   * @returns an async iterable of the outputs, in the inputs' order
   */
  async* runStream(inputs) {
    if (this.#disposed) throw new TesseraError('the model was disposed');
    const inFlight = [];
    try {
      for await (const input of inputs) {
        // Calls on one engine run in the order made, so each stage takes the inputs in turn.
        inFlight.push(this.run(input));
        if (inFlight.length > this.#stages.length) yield await inFlight.shift();
      }
      while (inFlight.length > 0) yield await inFlight.shift();
    } finally {
      await Promise.allSettled(inFlight);  // a consumer that stops early leaves nothing running
    }
  }

  /** Each worker's { wasmBytes, heapInUseBytes }, in worker order. */
  memoryUsage() {
    return Promise.all(this.#engines.map((engine) => engine.memoryUsage()));
  }

  async dispose() {
    if (this.#disposed) return;
    this.#onDispose();
    await this.markDisposed();
  }

  /** @internal what the engine does when the model goes */
  onDispose(callback) {
    this.#onDispose = callback;
  }

  /** @internal the engine went away: so do the workers */
  async markDisposed() {
    if (this.#disposed) return;
    this.#disposed = true;
    await Promise.all(this.#engines.map((engine) => engine.dispose()));
  }
}
