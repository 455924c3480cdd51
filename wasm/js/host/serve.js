// The host worker's message loop, the same in browsers and Node: requests { id, method,
// args } are served against the module; replies are { id, result } or { id, error: { name,
// message } }, with output buffers transferred, not copied, and a call may first report
// { id, event } (download progress).
import { CoreEngine } from './core_engine.js';
import { readModelFiles } from './model_files.js';

// A reply whose buffers are transferred to the caller, not copied.
class Transferring {
  constructor(result, transfer) {
    this.result = result;
    this.transfer = transfer;
  }
}

/**
 * @param port { post(message, transfer), listen(handler) } over the worker's channel
 * @param loadModule ({ flavour, threads, assetsUrl }) => Promise<module>
 * @param openFile (url) => Promise<{ size, read(offset, bytes) }>, for file: URLs (Node)
 */

export function serve(port, loadModule, openFile = null) {
  let engine = null;
  // Set when the module aborted (a bug, or an allocation the load checks did not foresee):
  // its state is then undefined, so every later call fails with this message.
  let failure = null;
  const current = () => {
    if (failure) throw new Error(failure);
    if (!engine) throw new Error('the engine was disposed');
    return engine;
  };
  // Calls reach the module strictly in arrival order, even across the asynchronous init.
  let queue = Promise.resolve();
  const inOrder = (work) => {
    const done = queue.then(work);
    queue = done.catch(() => {});
    return done;
  };
  const methods = {
    async init(options) {
      engine = new CoreEngine(await loadModule(options), options.threads, options.maximumMemory);
      return { threads: engine.threads };
    },
    // Downloads overlap other models' runs; only the load itself waits its turn.
    async loadModel(request, notify) {
      const files = await readModelFiles(request, { engine: await inOrder(current), openFile, notify });
      try {
        return await inOrder(() => current().loadModel(files.jsonText, files.weights, request.planning));
      } finally {
        files.weights?.free();
      }
    },
    // Holds the module for its seconds, as a run does; later calls wait for the profile.
    calibrate: ({ quick }) => current().calibrate(quick),
    setProfile: ({ profile }) => {
      current().profile = profile;
    },
    profile: () => current().profile,
    planningExtents: ({ jsonText, weightsBytes }) => current().planningExtents(jsonText, weightsBytes),
    placeStages: ({ jsonText, weightsBytes, read, options }) =>
      current().placeStages(jsonText, weightsBytes, read, options),
    predict: ({ model, ...options }) => current().predict(model, options),
    plan: ({ model, what }) => current().plan(model, what),
    run({ model, inputs, options }) {
      const { outputs, info, traceJson } = current().run(model, inputs, options);
      return new Transferring({ outputs, info, traceJson }, outputs.map((o) => o.data.buffer));
    },
    passThrough({ data }) {
      const copy = current().passThrough(data);
      return new Transferring(copy, [copy.buffer]);
    },
    disposeModel: ({ model }) => current().disposeModel(model),
    memoryUsage: () => current().memoryUsage(),
    dispose() {
      if (!failure) engine?.dispose();  // an aborted module is left to the worker's end
      engine = null;
    },
  };
  port.listen(async ({ id, method, args }) => {
    try {
      const notify = (event) => port.post({ id, event }, []);
      const value = await (method === 'loadModel' ? methods.loadModel(args, notify)
                                                 : inOrder(() => methods[method](args)));
      const { result, transfer } = value instanceof Transferring ? value : { result: value, transfer: [] };
      port.post({ id, result }, transfer);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        failure = `the engine aborted (${error.message}) and cannot be used further: create a new engine`;
        error = new Error(failure);
      }
      port.post({ id, error: { name: error.name, message: error.message ?? String(error) } }, []);
    }
  });
}
