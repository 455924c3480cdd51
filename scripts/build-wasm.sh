#!/usr/bin/env bash
# Builds the two WebAssembly flavours of the engine (threads: pthreads + SIMD128 over
# SharedArrayBuffer; single: SIMD128, for pages that are not cross-origin isolated) and
# gathers them in wasm/dist/, where the npm package picks them up, with the browser host
# worker. Needs Debian's emscripten and the npm dev dependencies (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"
export NODE_PATH=/usr/share/nodejs  # emcc's own JS tools need Debian's acorn

for flavour in threads single; do
  threads=ON
  [[ $flavour == single ]] && threads=OFF
  emcmake cmake -S . -B "build-wasm/$flavour" -DCMAKE_BUILD_TYPE=Release -DTESSERA_TESTS=OFF \
    -DTESSERA_WASM_THREADS="$threads" >/dev/null
  cmake --build "build-wasm/$flavour" -j"$jobs" --target tessera_wasm
done

rm -rf wasm/dist
mkdir -p wasm/dist
cp build-wasm/threads/dist/tessera-threads.{js,wasm,worker.js} build-wasm/single/dist/tessera-single.{js,wasm} \
  wasm/dist/
# The Emscripten loaders are CommonJS (and classic scripts in browsers) inside an ESM package.
echo '{ "type": "commonjs" }' >wasm/dist/package.json
# The browser host worker as one module beside the files it names, so apps (and bundlers)
# start it as a single script; its source is wasm/js/host/browser_worker.js.
node_modules/.bin/esbuild wasm/js/host/browser_worker.js --bundle --format=esm --platform=browser \
  --log-level=warning --outfile=wasm/dist/tessera-host.mjs
