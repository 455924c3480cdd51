// Tensor dims helpers shared by the API and its host worker.

/** The number of values in a tensor of these dims. */
export const elementCount = (dims) => dims.reduce((n, d) => n * d, 1);
