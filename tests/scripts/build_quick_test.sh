#!/usr/bin/env bash
# scripts/build.sh --quick against stand-ins for cmake (which records its arguments and builds
# nothing) and nvidia-smi (which lists a GPU or none): --quick builds the simapp target only, and
# without a GPU configures the host backend only; a full build after it lets CMake decide on the
# CUDA backend again and builds every target; arguments given on the command line win.
set -euo pipefail
source_dir=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/bin"
cat > "$scratch/bin/cmake" << 'EOF'
#!/bin/sh
echo "$*" >> "$CMAKE_CALLS"
EOF
cat > "$scratch/bin/nvidia-smi" << 'EOF'
#!/bin/sh
[ "$FAKE_GPUS" = 1 ] || { echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2; exit 9; }
echo "GPU 0: NVIDIA H200 (UUID: GPU-00000000-0000-0000-0000-000000000000)"
EOF
chmod +x "$scratch/bin/cmake" "$scratch/bin/nvidia-smi"
export PATH="$scratch/bin:$PATH" CMAKE_CALLS="$scratch/calls"
failures=0

# build.sh with the arguments after the first two in the build directory $1, GPUs listed: $2 (0 or 1);
# sets configure and build to the arguments cmake got.
build() {
  local directory=$1 gpus=$2
  shift 2
  : > "$CMAKE_CALLS"
  SIMAPP_BUILD_DIR="$scratch/$directory" FAKE_GPUS=$gpus "$source_dir/scripts/build.sh" "$@" > "$scratch/out" 2>&1 || {
    echo "FAIL: build.sh $* exited $?: $(cat "$scratch/out")"
    failures=$((failures + 1))
  }
  configure=$(grep -e '-S \.' "$CMAKE_CALLS" || true)
  build=$(grep -e '--build' "$CMAKE_CALLS" || true)
}

check() {
  if eval "$1"; then
    echo "ok: $2"
  else
    echo "FAIL: $2"
    echo "  configure: $configure"
    echo "  build: $build"
    failures=$((failures + 1))
  fi
}

build no_gpu 0 --quick
check '[[ $configure == *"-DSIMAPP_ENABLE_CUDA=OFF"* && $build == *"--target simapp" ]]' \
  "--quick without a GPU: the host backend only, the simapp target only"
build no_gpu 0
check '[[ $configure == *"-DSIMAPP_ENABLE_CUDA=AUTO"* && $build != *"--target"* ]]' \
  "a full build after --quick: CMake decides on the CUDA backend again, every target"
build no_gpu 0
check '[[ $configure != *"SIMAPP_ENABLE_CUDA"* && $build != *"--target"* ]]' \
  "a full build again: the configuration as CMake keeps it"
build gpu 1 --quick
check '[[ $configure != *"SIMAPP_ENABLE_CUDA"* && $build == *"--target simapp" ]]' \
  "--quick with a GPU: the CUDA backend where nvcc is found, the simapp target only"
build given 0 --quick -DSIMAPP_ENABLE_CUDA=ON
check '[[ $configure == *"-DSIMAPP_ENABLE_CUDA=OFF "*"-DSIMAPP_ENABLE_CUDA=ON"* ]]' \
  "--quick with -DSIMAPP_ENABLE_CUDA=ON given: the given value comes last, and wins"
rm "$scratch/bin/nvidia-smi"
build no_driver 0 --quick
check '[[ $configure == *"-DSIMAPP_ENABLE_CUDA=OFF"* ]]' "--quick without nvidia-smi: the host backend only"

((failures == 0)) || { echo "$failures check(s) failed"; exit 1; }
