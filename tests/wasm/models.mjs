// The zoo models the package tests run: the tiny models and MobileNetV2, generated once per
// test process by the native tessera-zoo (seeded, so the same files every time).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ZOO } from '../crosscheck/engines.mjs';
import { product, randomInput } from '../crosscheck/tensors.mjs';

export const TINY_MODELS = ['tiny_cnn', 'tiny_mlp', 'tiny_mobilenet', 'tiny_transformer'];

let dir = null;

function zooDir() {
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-wasm-zoo-'));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    execFileSync(ZOO, ['tiny', '-o', dir]);
    execFileSync(ZOO, ['mobilenetv2', '-o', dir]);
  }
  return dir;
}

/** { json: path, url: file URL of the JSON, weights: path, model: parsed JSON } of zoo model `name`. */
export function zooModel(name) {
  const json = path.join(zooDir(), `${name}.json`);
  if (!fs.existsSync(json)) throw new Error(`no zoo model ${name} in ${zooDir()}`);
  return {
    json,
    url: pathToFileURL(json),
    weights: path.join(zooDir(), `${name}.bin`),
    model: JSON.parse(fs.readFileSync(json, 'utf8')),
  };
}

/** Seeded random values for a zoo model's (first and only) input: { name, dims, data }. */
export function zooInput(zoo, seed) {
  const [{ name, shape }] = zoo.model.inputs;
  return { name, dims: shape, data: randomInput(product(shape), seed) };
}
