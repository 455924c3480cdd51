#!/usr/bin/env bash
# Every test: installs what is missing, builds once (Release) and runs the whole suite, then
# builds the runtime tests with ThreadSanitizer and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
tessera_install_deps
jobs="$(nproc)"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

# ThreadSanitizer: the executor, sessions sharing a pool, and schedules over the tiny zoo.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_TSAN=ON >/dev/null
cmake --build build-tsan -j"$jobs" --target engine_test schedule_test tessera-zoo
ctest --test-dir build-tsan --output-on-failure -R '^(generate_tiny_zoo|engine_test|schedule_test)$'
