#!/usr/bin/env node
// The `tessera` npm command: file I/O around the converter (convert, export). Errors go to
// stderr with exit code 1.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { convertOnnx, exportOnnx, fileStem, stringifyModel } from './convert/index.js';

const kHelp = `usage: tessera <command> [options]

commands:
  convert MODEL.onnx -o DIR [--input-shape NAME=1x3x640x640 ...] [--name NAME]
          convert an ONNX model to Tessera's format (docs/model-format.md): writes
          DIR/NAME.json and DIR/NAME.bin (NAME defaults to the ONNX file's name).
          Dynamic dimensions stay symbols (format version 2: the model runs at any
          size); --input-shape pins every dimension of a graph input (repeatable).
  export  MODEL.json -o MODEL.onnx
          write a Tessera model (JSON + its weights file) as an ONNX opset-20 model,
          e.g. to run the same graph and weights in onnxruntime.

Models run from JavaScript: import { createEngine } from 'tessera' (see the README). The
native build's CLI runs, benchmarks, inspects and traces them (tessera run|bench|inspect|trace).

options:
  -o, --output PATH   output directory (convert) or file (export)
  -h, --help          show this help`;

class UsageError extends Error {}

function parseShape(text) {
  const at = text.lastIndexOf('=');
  const name = text.slice(0, at);
  const dims = text.slice(at + 1).split(/[x,]/).map(Number);
  if (at <= 0 || dims.length === 0 || !dims.every((d) => Number.isInteger(d) && d > 0)) {
    throw new UsageError(`--input-shape expects NAME=DxDx... with positive integers, got "${text}"`);
  }
  return [name, dims];
}

function convert(positionals, values) {
  if (positionals.length !== 1 || !values.output) throw new UsageError('convert needs MODEL.onnx and -o DIR');
  const [modelPath] = positionals;
  const inputShapes = Object.fromEntries((values['input-shape'] ?? []).map(parseShape));
  const name = values.name ?? basename(modelPath, extname(modelPath));
  const { json, weights } = convertOnnx(readFileSync(modelPath), { inputShapes, name });
  mkdirSync(values.output, { recursive: true });
  const stem = fileStem(name);
  const jsonPath = join(values.output, `${stem}.json`);
  writeFileSync(jsonPath, stringifyModel(json));
  writeFileSync(join(values.output, json.weights), weights);
  const counts = {};
  for (const node of json.nodes) counts[node.op] = (counts[node.op] ?? 0) + 1;
  const ops = Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([op, n]) => `${op} x${n}`).join(', ');
  console.log(`${jsonPath}: ${json.nodes.length} nodes (${ops}), ${json.initializers.length} initializers, ${weights.length} weight bytes`);
}

function exportModel(positionals, values) {
  if (positionals.length !== 1 || !values.output) throw new UsageError('export needs MODEL.json and -o MODEL.onnx');
  const [jsonPath] = positionals;
  let json;
  try {
    json = JSON.parse(readFileSync(jsonPath, 'utf8'));
  } catch (e) {
    throw new Error(`${jsonPath}: ${e.code ? e.message : `not valid JSON: ${e.message}`}`);
  }
  // As the engine resolves it: "weights" relative to the JSON file, else <json path>.bin.
  const weightsPath = json.weights ? resolve(dirname(jsonPath), json.weights) : jsonPath.replace(/\.json$/, '') + '.bin';
  const needsWeights = (json.initializers ?? []).length > 0;
  if (needsWeights && !existsSync(weightsPath)) throw new Error(`weights file ${weightsPath} does not exist`);
  const weights = needsWeights ? readFileSync(weightsPath) : new Uint8Array(0);
  writeFileSync(values.output, exportOnnx(json, weights));
  console.log(`${values.output}: ${json.nodes?.length ?? 0} nodes, opset 20`);
}

function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      'input-shape': { type: 'string', multiple: true },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') return console.log(kHelp);
  if (command === 'convert') return convert(rest, values);
  if (command === 'export') return exportModel(rest, values);
  if (command === 'run' || command === 'bench') {
    throw new UsageError(`"${command}" is not in the npm package yet; use the native build (build/tessera ${command})`);
  }
  throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
}

try {
  main(process.argv.slice(2));
} catch (e) {
  const usage = e instanceof UsageError || e.code?.startsWith?.('ERR_PARSE_ARGS');
  process.stderr.write(`tessera: ${e.message}${usage ? '\n(tessera --help shows the commands)' : ''}\n`);
  process.exitCode = 1;
}
