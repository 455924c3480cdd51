// A run's tile timeline (the engine's Chrome trace): one row per executor thread, one bar per
// tile, coloured by op (alternate nodes a shade darker, so layer boundaries show), so idle
// gaps and the overlap of operators are visible.

const PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#eeca3b', '#b279a2', '#ff9da6',
  '#9d755d', '#bab0ac', '#1f77b4', '#d62728'];

/**
 * Tiles of a trace: [{ thread, start, end, op, odd }], times in ms from the first tile's
 * start; odd: the tile's node is an odd one in the order nodes first appear.
 */
export function tilesOf(trace) {
  const events = trace.traceEvents.filter((e) => e.ph === 'X');
  const t0 = events.reduce((first, e) => Math.min(first, e.ts), Infinity);
  const nodes = [...new Set(events.map((e) => e.name))];
  return events.map((e) => ({ thread: e.tid, start: (e.ts - t0) / 1000, end: (e.ts - t0 + e.dur) / 1000,
                              op: e.args?.op ?? e.cat, odd: nodes.indexOf(e.name) % 2 === 1 }));
}

/**
 * A <figure> with the timeline of `tiles` on `threads` rows, `spanMs` wide (shared when two
 * timelines are compared), and data attributes the tests read: threads used, tiles.
 */
export function timelineFigure(tiles, { threads, spanMs, caption }) {
  const ops = [...new Set(tiles.map((t) => t.op))];
  const colour = (op) => PALETTE[ops.indexOf(op) % PALETTE.length];
  const rowHeight = 28;
  const canvas = document.createElement('canvas');
  canvas.width = 1100;
  canvas.height = threads * rowHeight + 18;
  const context = canvas.getContext('2d');
  const x = (ms) => (ms / spanMs) * canvas.width;
  for (const tile of tiles) {
    context.fillStyle = colour(tile.op);
    context.filter = tile.odd ? 'brightness(0.75)' : 'none';
    context.fillRect(x(tile.start), tile.thread * rowHeight + 2, Math.max(1, x(tile.end) - x(tile.start)), rowHeight - 4);
  }
  context.filter = 'none';
  context.fillStyle = '#4a5868';
  context.font = '12px sans-serif';
  context.fillText(`0 ms`, 2, canvas.height - 4);
  context.fillText(`${spanMs.toFixed(1)} ms`, canvas.width - 60, canvas.height - 4);

  const figure = document.createElement('figure');
  figure.className = 'timeline';
  const used = new Set(tiles.map((t) => t.thread));
  figure.dataset.threadsUsed = String(used.size);
  figure.dataset.tiles = String(tiles.length);
  const title = document.createElement('figcaption');
  title.textContent = caption;
  const legend = document.createElement('div');
  legend.className = 'legend';
  legend.replaceChildren(...ops.map((op) => {
    const item = document.createElement('span');
    item.style.setProperty('--colour', colour(op));
    item.textContent = op;
    return item;
  }));
  figure.replaceChildren(title, canvas, legend);
  return figure;
}
