// The caller's bytes as the worker will read them, taken now: a view of a whole buffer is
// posted as is (the clone copies exactly it); part of a buffer (a clone would copy all of
// it) and shared memory (a clone shares it, and the caller may change it before the worker
// reads) are copied into a buffer of their own, to transfer. The copy goes through a plain
// Uint8Array, since a Node Buffer's slice() shares memory.
export function ownBuffer(view) {
  const shared = typeof SharedArrayBuffer !== 'undefined' && view.buffer instanceof SharedArrayBuffer;
  const whole = view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
  if (whole && !shared) return { view, owned: false };
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
  return { view: new view.constructor(bytes.buffer), owned: true };
}
