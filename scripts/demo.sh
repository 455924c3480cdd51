#!/usr/bin/env bash
# The default job: installs what is missing, builds Tessera, generates MobileNetV2 from the
# model zoo and runs it (outputs and latency), then benchmarks it side by side with the
# operator-at-a-time baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
tessera_install_deps
tessera_install_npm

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTESSERA_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target tessera_cli tessera-zoo

./build/models/tessera-zoo mobilenetv2 --batch 1 -o build/zoo
./build/tessera run build/zoo/mobilenetv2_b1.json --threads 2 --output-dir build/demo-out
./build/tessera bench build/zoo/mobilenetv2_b1.json --threads 2 --scheduler dynamic,barrier --runs 20

echo
echo "The browser demo (OCR and model explorer on WebAssembly threads): npm run demo"
