// The error type for problems in the model being converted (as opposed to bugs here).

/** A conversion failure caused by the input model; its message is meant for the user. */
export class ConvertError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ConvertError';
  }
}
