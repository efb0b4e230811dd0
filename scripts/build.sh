#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds simapp in ./build (Release).
# The CUDA backend is built when nvcc is found (SIMAPP_ENABLE_CUDA=AUTO); extra arguments go
# to cmake's configure step, e.g. scripts/build.sh -DSIMAPP_ENABLE_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install_dependencies.sh

build_dir=${SIMAPP_BUILD_DIR:-build}
warnings_as_errors=OFF
[[ "${CI:-}" == "true" ]] && warnings_as_errors=ON

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSIMAPP_WARNINGS_AS_ERRORS=$warnings_as_errors "$@"
cmake --build "$build_dir" -j "$(nproc)"
