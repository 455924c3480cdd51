// The model explorer: a zoo model or a dropped ONNX file (converted here, in the browser),
// run at a chosen thread count and scheduler; latency and the tile timeline of the last run,
// and both schedulers side by side on one time scale.
import { createEngine } from 'tessera';
import { convertOnnx } from 'tessera/convert';

import { onFile } from './files.js';
import { tilesOf, timelineFigure } from './timeline.js';

const $ = (selector) => document.querySelector(selector);
const kRuns = 10;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function setStatus(state, text) {
  $('#explorer-status').dataset.state = state;
  $('#explorer-status').textContent = text;
}

function showError(message) {
  $('#explorer-error').hidden = !message;
  $('#explorer-error').textContent = message ?? '';
}

// "x=1x3x224x224, y=1x10" -> { x: [1, 3, 224, 224], y: [1, 10] }
function parseShapes(text) {
  const shapes = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([^=]+)=(\d+(?:x\d+)*)$/.exec(part);
    if (!match) throw new Error(`input shape "${part}" should look like x=1x3x224x224`);
    shapes[match[1].trim()] = match[2].split('x').map(Number);
  }
  return shapes;
}

// Deterministic input values, the same for every run and scheduler.
function inputsOf(model) {
  return Object.fromEntries(model.inputs.map(({ name, dims }) => {
    const count = dims.reduce((a, b) => a * b, 1);
    return [name, { data: Float32Array.from({ length: count }, (_, i) => Math.sin(i * 0.37)), dims }];
  }));
}

export function setupExplorer(pageEngine) {
  const engines = new Map([[pageEngine.threads, pageEngine]]);  // threads -> engine, for the page's life
  const loaded = new Map();  // `${threads}/${choice key}` -> model
  let converted = null;      // { key, name, json, weights } of the last converted ONNX file
  let conversions = 0;
  let busy = false;          // one action at a time: its results and status belong together

  const threadsSelect = $('#explorer-threads');
  for (let t = 1; t <= pageEngine.threads; ++t) {
    threadsSelect.add(new Option(String(t), String(t), false, t === pageEngine.threads));
  }

  fetch('/models/index.json').then((r) => r.json()).then(({ explorer }) => {
    for (const { name } of explorer) $('#explorer-model').add(new Option(name, name));
    $('#explorer-model').value = explorer.some((m) => m.name === 'mobilenetv2_b1') ? 'mobilenetv2_b1' : explorer[0].name;
  });
  $('#explorer-model').addEventListener('change', () => (converted = null));

  async function engineFor(threads) {
    if (!engines.has(threads)) engines.set(threads, await createEngine({ threads }));
    return engines.get(threads);
  }

  async function modelFor(choice, threads) {
    const key = `${threads}/${choice.key}`;
    if (!loaded.has(key)) {
      setStatus('loading', `loading ${choice.name}…`);
      const engine = await engineFor(threads);
      loaded.set(key, choice.json ? await engine.loadModel(choice.json, choice.weights)
        : await engine.loadModel(new URL(`/models/${choice.name}.json`, location.href)));
    }
    return loaded.get(key);
  }

  // Median latency of kRuns runs (after 3 warm-up runs) and the trace of the last.
  async function measure(choice, threads, scheduler) {
    const model = await modelFor(choice, threads);
    const inputs = inputsOf(model);
    setStatus('running', `running ${model.name} (${scheduler}, ${threads} threads)…`);
    for (let i = 0; i < 3; ++i) await model.run(inputs, { scheduler });
    const times = [];
    for (let i = 0; i < kRuns; ++i) {
      const start = performance.now();
      await model.run(inputs, { scheduler, trace: i === kRuns - 1 });
      times.push(performance.now() - start);
    }
    return { model, scheduler, threads, ms: median(times), tiles: tilesOf(model.trace()) };
  }

  function show(results) {
    const spanMs = results.flatMap((r) => r.tiles).reduce((end, tile) => Math.max(end, tile.end), 0);
    $('#timelines').replaceChildren(...results.map((r) => {
      const info = r.model.inspect();
      const figure = timelineFigure(r.tiles, { threads: r.threads, spanMs, caption:
        `${r.model.name}, ${r.scheduler}, ${r.threads} threads: median ${r.ms.toFixed(2)} ms over ${kRuns} runs · ` +
        `${info.nodes.length} ops, ${info.tiles} tiles, ${(info.flops / 1e9).toFixed(2)} GFLOP, ` +
        `arena ${(info.arena_bytes / 2 ** 20).toFixed(1)} MiB` });
      figure.dataset.scheduler = r.scheduler;
      figure.dataset.threads = String(r.threads);
      return figure;
    }));
  }

  // Runs `work` unless another action is running; buttons are disabled meanwhile.
  async function exclusively(work) {
    if (busy) return;
    busy = true;
    document.querySelectorAll('#explorer button').forEach((button) => (button.disabled = true));
    showError(null);
    try {
      await work();
    } finally {
      busy = false;
      document.querySelectorAll('#explorer button').forEach((button) => (button.disabled = false));
    }
  }

  const act = (schedulers) => exclusively(async () => {
    setStatus('running', 'starting…');
    const choice = converted ?? { key: $('#explorer-model').value, name: $('#explorer-model').value };
    const threads = Number(threadsSelect.value);
    try {
      const results = [];
      for (const scheduler of schedulers) results.push(await measure(choice, threads, scheduler));
      show(results);
      setStatus('done', results.map((r) => `${r.scheduler}: ${r.ms.toFixed(2)} ms`).join(' · '));
    } catch (error) {
      setStatus('failed', 'failed');
      showError(error.message);
    }
  });

  const convert = (file) => exclusively(async () => {
    setStatus('loading', `converting ${file.name}…`);
    try {
      const { json, weights } = convertOnnx(new Uint8Array(await file.arrayBuffer()),
        { inputShapes: parseShapes($('#explorer-shape').value), name: file.name.replace(/\.onnx$/i, '') });
      converted = { key: `onnx-${++conversions}`, name: json.name, json, weights };
      setStatus('done', `converted ${file.name}: ${json.nodes.length} nodes; press Run`);
    } catch (error) {
      converted = null;
      setStatus('failed', 'conversion failed');
      showError(`${file.name}: ${error.message}`);
    }
  });

  $('#explorer-run').addEventListener('click', () => act([$('#explorer-scheduler').value]));
  $('#explorer-compare').addEventListener('click', () => act(['dynamic', 'barrier']));
  onFile($('#explorer-drop'), $('#explorer-file'), convert);
}
