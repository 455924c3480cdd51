// The error type of the engine package.

/**
 * A failure reported by the engine: a bad model, a wrong input name, shape or dtype, memory
 * running out. The message is the core's, naming the node or tensor at fault. The engine
 * stays usable afterwards.
 */
export class TesseraError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TesseraError';
  }
}
