// What a tensor crossing between two stages costs in WebAssembly (docs/placement.md): the
// sending worker copies it out of its memory and transfers it to the caller's thread, which
// transfers it to the receiving worker, which copies it into its own memory. A round trip
// through one engine's worker takes the same path: transferred from here, copied into the
// worker's memory and out again, transferred back. Timed empty and with a tensor larger than
// the last cache; medians.
const kBytes = 32 * 2 ** 20;

/**
 * The profile's `transfer` section { message_ns, copy_gbps }, measured through `channel` (an
 * engine's). The planner charges a crossing message + 2 x bytes / copy rate (the sender's copy
 * out and the receiver's copy in), which these rates make equal to the round trip.
 */
export async function measureTransfer(channel, quick) {
  const roundTripMs = async (bytes) => {
    const data = new Uint8Array(bytes).fill(1);
    const start = performance.now();
    await channel.call('passThrough', { data }, [data.buffer]);
    return performance.now() - start;
  };
  const medianMs = async (bytes) => {
    const times = [];
    for (let i = 0; i < (quick ? 5 : 15); ++i) times.push(await roundTripMs(bytes));
    return times.sort((a, b) => a - b)[times.length >> 1];
  };
  await roundTripMs(kBytes);  // the worker's memory grows once, outside the timing
  const empty = await medianMs(0);
  const full = await medianMs(kBytes);
  return { message_ns: empty * 1e6, copy_gbps: (2 * kBytes) / Math.max(full - empty, 1e-6) / 1e6 };
}
