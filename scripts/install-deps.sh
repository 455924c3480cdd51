#!/usr/bin/env bash
# Installs the Debian packages Tessera builds and tests with, if any is missing.
# Sourced by demo.sh and test.sh; safe to run again.
set -euo pipefail

TESSERA_PACKAGES=(build-essential cmake nlohmann-json3-dev catch2)

tessera_install_deps() {
  local missing=()
  for package in "${TESSERA_PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  if ((${#missing[@]} == 0)); then
    return
  fi
  echo "installing: ${missing[*]}"
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
}
