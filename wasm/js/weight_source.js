// A model's files read in parts, for placing it over workers: each worker gets only the bytes
// its stage needs, so the whole weights file never has to fit one WebAssembly instance (nor,
// for a file or an address, the caller's memory). Sources: bytes the caller holds, a file: URL
// in Node (read where it lies), or any other URL (HTTP range requests, or one download when the
// server ignores them).
import { TesseraError } from './errors.js';

/** { size, read(offset, bytes) => Promise<Uint8Array> } over bytes the caller holds. */
export function bytesSource(bytes) {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset,
                                                                                       bytes.byteLength);
  return { size: view.byteLength, read: async (offset, length) => view.subarray(offset, offset + length) };
}

/** The same over a URL; `openFile` (Node's, or null) reads file: URLs. */
export async function urlSource(url, openFile, what) {
  if (url.protocol === 'file:') {
    if (!openFile) throw new TesseraError(`${what}: cannot read ${url.href} here`);
    return openFile(url);
  }
  // One byte first: a 206 answer says the server serves ranges, and how long the file is.
  const probe = await fetchOk(url, { headers: { Range: 'bytes=0-0' } }, what);
  const total = Number(probe.headers.get('Content-Range')?.split('/')[1]);
  if (probe.status !== 206 || !Number.isSafeInteger(total)) {
    return bytesSource(new Uint8Array(await probe.arrayBuffer()));
  }
  await probe.arrayBuffer();
  return {
    size: total,
    read: async (offset, length) => {
      if (length === 0) return new Uint8Array(0);
      const answer = await fetchOk(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } }, what);
      const part = new Uint8Array(await answer.arrayBuffer());
      if (part.byteLength !== length) {
        throw new TesseraError(`${what}: asked ${url.href} for ${length} bytes at ${offset}, got ${part.byteLength}`);
      }
      return part;
    },
  };
}

/** A whole (small) file: the model JSON. */
export async function readText(source) {
  return new TextDecoder().decode(await source.read(0, source.size));
}

/**
 * `extents` ([offset, bytes, stride, count, at], the core's) of `source` gathered into one
 * buffer of `size` bytes: `count` runs of `bytes`, `stride` apart from `offset`, at `at`.
 */
export async function gather(source, extents, size, what) {
  const out = new Uint8Array(size);
  for (const [offset, bytes, stride, count, at] of extents) {
    const span = (count - 1) * stride + bytes;
    if (offset + span > source.size) {
      throw new TesseraError(`${what}: bytes [${offset}, ${offset + span}) lie past the end of the ` +
                             `${source.size}-byte weights`);
    }
    const part = await source.read(offset, span);
    for (let r = 0; r < count; ++r) out.set(part.subarray(r * stride, r * stride + bytes), at + r * bytes);
  }
  return out;
}

async function fetchOk(url, init, what) {
  let answer;
  try {
    answer = await fetch(url, init);
  } catch (error) {
    throw new TesseraError(`${what}: cannot fetch ${url.href}: ${error.message}`);
  }
  if (!answer.ok) throw new TesseraError(`${what}: ${url.href} answered ${answer.status} ${answer.statusText}`);
  return answer;
}
