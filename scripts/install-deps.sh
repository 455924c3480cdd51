#!/usr/bin/env bash
# Installs what Tessera builds and tests with, if anything is missing: Debian packages
# (compiler, CMake, nlohmann/json, Catch2, XNNPACK, CBC, Emscripten, Chromium, the ONNX
# backend test data, Node.js) and the npm dev dependencies pinned in package-lock.json. Sourced by
# demo.sh and test.sh; safe to run again.
set -euo pipefail

TESSERA_PACKAGES=(build-essential cmake nlohmann-json3-dev catch2 libxnnpack-dev libpthreadpool-dev
  coinor-libcbc-dev emscripten libonnx-testdata chromium)

tessera_install_deps() {
  local missing=()
  for package in "${TESSERA_PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  command -v node >/dev/null 2>&1 || missing+=(nodejs npm)
  if ((${#missing[@]} > 0)); then
    echo "installing: ${missing[*]}"
    local sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
  fi
}

# onnxruntime-node's install script downloads from the internet; its CPU binary ships in
# the package, so scripts are skipped.
tessera_install_npm() {
  if [[ ! -d node_modules/onnx-proto || package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm ci --ignore-scripts --no-audit --no-fund
  fi
}
