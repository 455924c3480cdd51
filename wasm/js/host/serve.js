// The host worker's message loop, the same in browsers and Node: requests { id, method,
// args } are served one at a time against the module; replies are { id, result } or
// { id, error: { name, message } }, with output buffers transferred, not copied.
import { CoreEngine } from './core_engine.js';

/**
 * @param port { post(message, transfer), listen(handler) } over the worker's channel
 * @param loadModule (flavour, threads) => Promise<module>
 */
export function serve(port, loadModule) {
  let engine = null;
  // Set when the module aborted (a bug, or an allocation the load checks did not foresee):
  // its state is then undefined, so every later call fails with this message.
  let failure = null;
  const current = () => {
    if (failure) throw new Error(failure);
    if (!engine) throw new Error('the engine was disposed');
    return engine;
  };
  const methods = {
    async init({ flavour, threads }) {
      engine = new CoreEngine(await loadModule(flavour, threads), threads);
      return { threads: engine.threads };
    },
    loadModel: ({ json, weights }) => current().loadModel(json, weights),
    run({ model, inputs, options }) {
      const { outputs, info, traceJson } = current().run(model, inputs, options);
      return { result: { outputs, info, traceJson }, transfer: outputs.map((o) => o.data.buffer) };
    },
    disposeModel: ({ model }) => current().disposeModel(model),
    memoryUsage: () => current().memoryUsage(),
    dispose() {
      if (!failure) engine?.dispose();  // an aborted module is left to the worker's end
      engine = null;
    },
  };
  // Calls run strictly in arrival order, even across the asynchronous init.
  let queue = Promise.resolve();
  port.listen(({ id, method, args }) => {
    queue = queue.then(async () => {
      try {
        const value = await methods[method](args);
        const { result, transfer } = method === 'run' ? value : { result: value, transfer: [] };
        port.post({ id, result }, transfer);
      } catch (error) {
        if (error instanceof WebAssembly.RuntimeError) {
          failure = `the engine aborted (${error.message}) and cannot be used further: create a new engine`;
          error = new Error(failure);
        }
        port.post({ id, error: { name: error.name, message: error.message ?? String(error) } }, []);
      }
    });
  });
}
