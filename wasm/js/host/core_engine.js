// The engine inside its host worker: the WebAssembly module's flat C API (wasm/c_api.h)
// behind plain synchronous calls. Pointers are unsigned (memory may exceed 2 GiB); views of
// memory are made fresh before each use, because growth replaces the buffer.
import { elementCount } from '../dims.js';
import { DTYPES } from '../dtypes.js';
import { TesseraError } from '../errors.js';

/** The schedulers, in the order of the C API's codes. */
export const SCHEDULERS = ['dynamic', 'barrier', 'shuffle'];
/** Those the cost model predicts (and the planner plans for). */
export const PREDICTED_SCHEDULERS = SCHEDULERS.slice(0, 2);
/** What tessera_model_plan returns, in the order of its codes. */
const PLAN_RESULTS = ['report', 'file'];

// What a wasm32 instance addresses.
const kMaxInstanceBytes = 2 ** 32;

const mib = (bytes) => `${Math.ceil(bytes / 2 ** 20)} MiB`;

const kPageBytes = 65536;  // a WebAssembly memory grows by whole pages
const wholePages = (bytes) => Math.floor(bytes / kPageBytes);
// The module's starting memory (INITIAL_MEMORY in wasm/CMakeLists.txt), in pages.
const kInitialPages = 1024;
/** The least createEngine's maximumMemory may be: the module's starting memory. */
export const kMinMaximumMemory = kInitialPages * kPageBytes;

/**
 * Module options for a threaded module whose memory may grow to `maximumMemory` bytes at most
 * (none: the build's 4 GiB). Allocations beyond it fail as out of memory.
 */
export function memoryOptions(maximumMemory) {
  if (!maximumMemory) return {};
  return { wasmMemory: new WebAssembly.Memory({ initial: kInitialPages, maximum: wholePages(maximumMemory),
                                                shared: true }) };
}

export class CoreEngine {
  /**
   * @param module an instantiated Emscripten module (createTesseraModule)
   * @param [maximumMemory] the cap its memory was created with (memoryOptions), if any
   */
  constructor(module, threads, maximumMemory = 0) {
    this.module = module;
    // What the memory can grow to: whole pages, as memoryOptions created it.
    if (maximumMemory) module._tessera_memory_limit(wholePages(maximumMemory) * kPageBytes);
    this.handle = module._tessera_engine_create(threads) >>> 0;
    this.models = new Map();  // id -> { handle, info, infoVersion }
    this.nextModelId = 1;
    this.profile = '';  // the JSON text of the profile predictions use by default ('': none)
  }

  get threads() {
    return this.module._tessera_engine_threads(this.handle);
  }

  /**
   * Loads a model from its JSON text and its weights (a weightsBuffer, or null), which the
   * load takes over, tiled as `planning` says ({ planner, planScheduler, plan: JSON text },
   * each optional) with the engine's profile for the search; returns the model's id, its
   * signature (declared inputs and outputs, dims may be symbols) and, when its dims are all
   * fixed, its info (the core's model_info_json).
   */
  loadModel(jsonText, weights, planning = {}) {
    const m = this.module;
    const modelOut = this.#malloc(4, 'the model handle');
    let buffer = weights?.take() ?? 0;
    try {
      const jsonPtr = this.#cString(jsonText, 'the model JSON');
      let optionsPtr = 0;
      try {
        optionsPtr = this.#cString(JSON.stringify({ ...planning, profile: this.profile }), 'the load options');
        const status = m._tessera_model_load(this.handle, jsonPtr, buffer, optionsPtr, modelOut);
        buffer = 0;  // taken over, even by a failed load
        if (status !== 0) throw new TesseraError(m.UTF8ToString(m._tessera_engine_last_error(this.handle)));
      } finally {
        m._free(jsonPtr);
        m._free(optionsPtr);
      }
      const handle = new Uint32Array(this.#memory(), modelOut, 1)[0];
      const signature = JSON.parse(m.UTF8ToString(m._tessera_model_signature_json(handle)));
      const id = this.nextModelId++;
      const info = this.#info(handle);
      this.models.set(id, { handle, info, infoVersion: m._tessera_model_info_version(handle) });
      return { id, signature, info };
    } finally {
      m._free(modelOut);
      if (buffer) m._tessera_buffer_destroy(buffer);
    }
  }

  /**
   * What placing a model over workers reads of its `weightsBytes`-byte weights file: the
   * core's { extents: [[offset, bytes, stride, count, at]], bytes } (tessera_planning_extents).
   */
  planningExtents(jsonText, weightsBytes) {
    return this.#engineJson((m) => {
      const jsonPtr = this.#cString(jsonText, 'the model JSON');
      try {
        return m._tessera_planning_extents(this.handle, jsonPtr, weightsBytes);
      } finally {
        m._free(jsonPtr);
      }
    });
  }

  /**
   * Places a model over workers and cuts it into stage models (tessera_place_stages), from the
   * bytes of its planning extents (`read`, a Uint8Array laid out as they say) and `options`
   * { workers, threads, worker_memory, objective }, with the engine's profile: the core's
   * { placement, stages }, parsed.
   */
  placeStages(jsonText, weightsBytes, read, options) {
    const buffer = this.weightsBuffer(read.byteLength, 'the planning weights');
    buffer.write(read, 0);
    return this.#engineJson((m) => {
      const jsonPtr = this.#cString(jsonText, 'the model JSON');
      let optionsPtr = 0;
      try {
        optionsPtr = this.#cString(JSON.stringify({ ...options, profile: this.profile }), 'the place options');
        return m._tessera_place_stages(this.handle, jsonPtr, weightsBytes, buffer.take(), optionsPtr);
      } finally {
        buffer.free();
        m._free(jsonPtr);
        m._free(optionsPtr);
      }
    });
  }

  /**
   * A buffer in WebAssembly memory for a `bytes`-byte weights file, written into as it arrives
   * (`what` names it in errors). Given the model's JSON text, it holds only the initializers'
   * bytes, one allocation per stretch of them, which the load frees one by one as it packs them;
   * else the whole file. write(chunk, offset) copies a chunk in; loadModel takes it over;
   * free() releases a buffer no load took (again: nothing).
   */
  weightsBuffer(bytes, what, jsonText = null) {
    const m = this.module;
    if (bytes > kMaxInstanceBytes) {
      throw new TesseraError(`out of memory: ${mib(bytes)} of ${what} are more than one WebAssembly instance can ` +
                             'hold (4 GiB): place the model over workers (loadModel\'s workers option)');
    }
    let buffer = 0;
    if (jsonText === null) {
      buffer = m._tessera_buffer_create(bytes) >>> 0;
    } else {
      const jsonPtr = this.#cString(jsonText, 'the model JSON');
      try {
        buffer = m._tessera_weights_create(jsonPtr, bytes) >>> 0;
      } finally {
        m._free(jsonPtr);
      }
    }
    if (!buffer) throw new TesseraError(`out of memory: no room for ${mib(bytes)} of ${what} in WebAssembly memory`);
    return {
      write: (chunk, offset) => {
        if (offset + chunk.byteLength > bytes) throw new TesseraError(`${what}: more than the ${bytes} bytes announced`);
        // A fresh view each time: another model's allocation may have grown the memory.
        const memory = new Uint8Array(this.#memory());
        for (let done = 0; done < chunk.byteLength;) {
          const at = m._tessera_buffer_span_data(buffer, offset + done) >>> 0;
          const n = Math.min(m._tessera_buffer_span_bytes(buffer, offset + done), chunk.byteLength - done);
          if (at) memory.set(chunk.subarray(done, done + n), at);  // else bytes no initializer holds
          done += n;
        }
      },
      take: () => {
        const taken = buffer;
        buffer = 0;
        return taken;
      },
      free: () => {
        if (buffer) m._tessera_buffer_destroy(buffer);
        buffer = 0;
      },
    };
  }

  /**
   * Runs model `id` on inputs [{ name, dtype, dims, data: typed array }]; returns the outputs
   * [{ name, dtype, dims, data }] (copies out of wasm memory), the info of the specialisation
   * that ran when it differs from the previous run's (else null) and, when traced, the trace JSON.
   */
  run(id, inputs, { scheduler = 'dynamic', trace = false } = {}) {
    const m = this.module;
    const model = this.#model(id);
    for (const { name, dtype, dims, data } of inputs) {
      const dest = this.#stageInput(model.handle, name, dtype, dims);
      new DTYPES[dtype].array(this.#memory(), dest, data.length).set(data);
    }
    if (m._tessera_model_run(model.handle, SCHEDULERS.indexOf(scheduler), trace ? 1 : 0) !== 0) {
      throw new TesseraError(m.UTF8ToString(m._tessera_model_last_error(model.handle)));
    }
    // The info is parsed again only when a run at new dims changed it.
    const version = m._tessera_model_info_version(model.handle);
    const changed = version !== model.infoVersion;
    if (changed) Object.assign(model, { info: this.#info(model.handle), infoVersion: version });
    const outputs = model.info.outputs.map(({ name, dtype, dims }, index) => {
      const source = m._tessera_model_output(model.handle, index) >>> 0;
      return { name, dtype, dims, data: new DTYPES[dtype].array(this.#memory(), source, elementCount(dims)).slice() };
    });
    let traceJson = null;
    if (trace) {
      try {
        traceJson = m.UTF8ToString(m._tessera_model_trace_json(model.handle));
      } finally {
        m._tessera_model_release_trace(model.handle);
      }
    }
    return { outputs, info: changed ? model.info : null, traceJson };
  }

  /**
   * Measures the machine (tessera_engine_calibrate); returns the profile's JSON text, which
   * becomes the engine's profile.
   */
  async calibrate(quick) {
    await this.#loadCalibrationWorkers();
    const m = this.module;
    const json = m._tessera_engine_calibrate(this.handle, quick ? 1 : 0) >>> 0;
    if (!json) throw new TesseraError(m.UTF8ToString(m._tessera_engine_last_error(this.handle)));
    this.profile = m.UTF8ToString(json);
    return this.profile;
  }

  /**
   * A copy of the bytes `data` made through WebAssembly memory: a tensor crossing between
   * stages is copied in by one worker and out by another (transfer calibration).
   */
  passThrough(data) {
    const at = this.#malloc(Math.max(data.byteLength, 1), 'a tensor in transit');
    try {
      new Uint8Array(this.#memory(), at, data.byteLength).set(data);
      return new Uint8Array(this.#memory(), at, data.byteLength).slice();
    } finally {
      this.module._free(at);
    }
  }

  /**
   * The cost model's prediction for model `id` (of the specialisation its info describes) on
   * `threads` threads under `scheduler`, from `profile` (JSON text; null: the engine's): the
   * core's prediction JSON, parsed.
   */
  predict(id, { threads, scheduler, profile }) {
    const m = this.module;
    const model = this.#model(id);
    const profilePtr = this.#cString(profile ?? this.profile, 'the profile');
    try {
      const json = m._tessera_model_predict(model.handle, threads, PREDICTED_SCHEDULERS.indexOf(scheduler),
                                            profilePtr) >>> 0;
      if (!json) throw new TesseraError(m.UTF8ToString(m._tessera_model_last_error(model.handle)));
      return JSON.parse(m.UTF8ToString(json));
    } finally {
      m._free(profilePtr);
    }
  }

  /**
   * How model `id` (the specialisation its info describes) was tiled: `what` 'report' gives
   * the core's plan report JSON, 'file' its plan file JSON; parsed.
   */
  plan(id, what) {
    const m = this.module;
    const model = this.#model(id);
    const json = m._tessera_model_plan(model.handle, PLAN_RESULTS.indexOf(what)) >>> 0;
    if (!json) throw new TesseraError(m.UTF8ToString(m._tessera_model_last_error(model.handle)));
    return JSON.parse(m.UTF8ToString(json));
  }

  disposeModel(id) {
    this.module._tessera_model_destroy(this.#model(id).handle);
    this.models.delete(id);
  }

  /** wasmBytes: the module's memory; heapInUseBytes: what the allocator has handed out. */
  memoryUsage() {
    return {
      wasmBytes: this.#memory().byteLength,
      heapInUseBytes: this.module._tessera_heap_bytes_in_use() >>> 0,
    };
  }

  /** Frees every model and the engine, joining its threads. */
  dispose() {
    for (const id of [...this.models.keys()]) this.disposeModel(id);
    this.module._tessera_engine_destroy(this.handle);
    this.module.PThread?.terminateAllThreads();
  }

  // Calibration starts threads of its own, up to as many as the engine has, beside the
  // executor's. A thread starts only on a worker that has loaded the module, and calibrating
  // blocks this thread (which would hear of a new worker's loading) until it ends: so the
  // workers are added to the pool and loaded first. They stay for later calibrations.
  async #loadCalibrationWorkers() {
    const pthread = this.module.PThread;
    if (!pthread) return;  // the single-threaded build
    const loading = [];
    for (let n = pthread.unusedWorkers.length; n < this.threads; ++n) {
      pthread.allocateUnusedWorker();
      const worker = pthread.unusedWorkers.at(-1);
      loading.push(new Promise((resolve) => pthread.loadWasmModuleToWorker(worker, resolve)));
    }
    await Promise.all(loading);
  }

  // Calls `call(module)`, an engine function returning JSON text or NULL with the engine's
  // error; the JSON parsed.
  #engineJson(call) {
    const m = this.module;
    const json = call(m) >>> 0;
    if (!json) throw new TesseraError(m.UTF8ToString(m._tessera_engine_last_error(this.handle)));
    return JSON.parse(m.UTF8ToString(json));
  }

  // The threads build exports its (shared) memory; the single build's views are current.
  #memory() {
    return this.module.wasmMemory?.buffer ?? this.module.HEAPU8.buffer;
  }

  // The info JSON of the model's last specialisation, or null before a run of a symbolic model.
  #info(handle) {
    const json = this.module._tessera_model_info_json(handle) >>> 0;
    return json ? JSON.parse(this.module.UTF8ToString(json)) : null;
  }

  #model(id) {
    const model = this.models.get(id);
    if (!model) throw new TesseraError('the model was disposed');
    return model;
  }

  #malloc(bytes, what) {
    const ptr = this.module._malloc(bytes) >>> 0;
    if (!ptr) throw new TesseraError(`out of memory: no room for ${what} (${mib(bytes)}) in WebAssembly memory`);
    return ptr;
  }

  #cString(text, what) {
    const size = this.module.lengthBytesUTF8(text) + 1;
    const ptr = this.#malloc(size, what);
    this.module.stringToUTF8(text, ptr, size);
    return ptr;
  }

  // Where input `name` of this dtype and these dims goes for the next run.
  #stageInput(modelHandle, name, dtype, dims) {
    const m = this.module;
    const namePtr = this.#cString(name, 'an input name');
    const dimsPtr = this.#malloc(8 * Math.max(dims.length, 1), 'input dims');
    try {
      new BigInt64Array(this.#memory(), dimsPtr, dims.length).set(dims.map(BigInt));
      const dest = m._tessera_model_input(modelHandle, namePtr, DTYPES[dtype].code, dimsPtr, dims.length) >>> 0;
      if (!dest) throw new TesseraError(m.UTF8ToString(m._tessera_model_last_error(modelHandle)));
      return dest;
    } finally {
      m._free(namePtr);
      m._free(dimsPtr);
    }
  }
}
