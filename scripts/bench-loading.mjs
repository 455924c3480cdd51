// Loading a model from a URL, measured in the package (Node): peak memory and time when the
// weights stream from HTTP into the engine (loadModel(url)), next to the way an app without
// streaming does it (fetch the weights into an ArrayBuffer, then loadModel(json, bytes)).
// Each load runs in a fresh process, whose peak resident memory (VmHWM) is the figure; the
// two ways alternate over the rounds, and each cell is a median.
//
//   node scripts/bench-loading.mjs [--model resnet50_b1] [--rounds 5]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { REPO, median, peakResidentBytes, prepareModels } from './bench-models.mjs';
import { createStaticServer, listen } from './static-server.mjs';

// One load in this process: prints { ms, peakMiB }.
async function child(way, jsonUrl) {
  const { createEngine } = await import('tessera');
  const engine = await createEngine({ threads: 2 });
  const start = performance.now();
  const url = new URL(jsonUrl);
  const model = way === 'stream' ? await engine.loadModel(url)
    : await engine.loadModel(url, new Uint8Array(await (await fetch(new URL(url.href.replace(/\.json$/, '.bin')))).arrayBuffer()));
  const ms = performance.now() - start;
  await model.dispose();
  await engine.dispose();
  console.log(JSON.stringify({ ms, peakMiB: peakResidentBytes() / 2 ** 20 }));
}

async function main() {
  const { values } = parseArgs({ options: { model: { type: 'string', default: 'resnet50_b1' },
                                            rounds: { type: 'string', default: '5' } } });
  const dir = path.join(REPO, 'build/bench-loading');
  const [{ json }] = prepareModels([values.model], dir, { onnx: false });
  const server = createStaticServer([['/', dir]], { isolated: false });
  const jsonUrl = `${await listen(server)}/${path.basename(json)}`;
  const weightsMiB = fs.statSync(json.replace(/\.json$/, '.bin')).size / 2 ** 20;
  const results = { stream: [], bytes: [] };
  for (let round = 0; round < Number(values.rounds); ++round) {
    for (const way of round % 2 ? ['bytes', 'stream'] : ['stream', 'bytes']) {
      // Asynchronous: this process keeps serving the files meanwhile.
      const output = await new Promise((resolve, reject) => {
        const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', way, jsonUrl],
          { stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        proc.stdout.on('data', (chunk) => (text += chunk));
        proc.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`child exited with ${code}`))));
      });
      results[way].push(JSON.parse(output));
    }
  }
  server.close();
  console.log(`${values.model}: weights ${weightsMiB.toFixed(1)} MiB, ${values.rounds} rounds, medians`);
  for (const [way, runs] of Object.entries(results)) {
    console.log(`  ${way === 'stream' ? 'loadModel(url), streamed  ' : 'fetch + loadModel(bytes)   '}` +
                `peak ${median(runs.map((r) => r.peakMiB)).toFixed(0)} MiB, load ${median(runs.map((r) => r.ms)).toFixed(0)} ms`);
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await main();
