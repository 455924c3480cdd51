#!/usr/bin/env bash
# Every test: installs what is missing, builds once (Release) and runs the C++ suite; builds
# the WebAssembly package and installs its tarball into a scratch app for the package
# tests; runs the JS converter tests, the export-shaped test models on onnxruntime, the
# cross-checks against onnxruntime-node (symbolic PP-OCR, BERT, YOLO and decoder exports), the
# browser demo's tests in Chromium (screenshots in build/test-output/web-demo), the example
# apps (examples/: each built by its bundler from the tarball, run in Chromium and Node), the
# ONNX backend conformance run (rewrites docs/conformance.md), then the ThreadSanitizer build of
# the runtime tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
tessera_install_deps
tessera_install_npm
jobs="$(nproc)"

# Every option the suite needs is set here: scripts/demo.sh configures the same build tree
# without tests, and a cached configuration must not silently leave them out.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTESSERA_TESTS=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"

scripts/build-wasm.sh
app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
node tests/wasm/package.mjs "$app" --no-build
TESSERA_APP_DIR="$app" node --test tests/js/ tests/exports/ tests/crosscheck/ tests/wasm/ tests/web-demo/ tests/examples/
node tests/conformance/run.mjs

# ThreadSanitizer: the executor, sessions sharing a pool, schedules over the tiny zoo,
# specialisations compiled concurrently, and pipelines streaming through stage threads.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_TESTS=ON -DTESSERA_TSAN=ON >/dev/null
cmake --build build-tsan -j"$jobs" --target engine_test schedule_test specialization_test pipeline_test tessera-zoo
ctest --test-dir build-tsan --output-on-failure --no-tests=error \
  -R '^(generate_tiny_zoo|engine_test|schedule_test|specialization_concurrency|pipeline_test)$'
