#!/usr/bin/env bash
# Configures and builds simapp in ./build (Release) with the libraries this machine has, as CMake
# finds them (CMAKE_PREFIX_PATH and environment modules are honoured; serial or parallel HDF5;
# Ninja or Make), and installs only what is missing, only where it can: when CMake cannot
# configure, scripts/install_dependencies.sh apt-gets the missing Debian/Ubuntu packages (as root
# or through sudo, from a reachable package registry), then CMake configures again. Says in one
# line what it found and what it installed.
# Usage: scripts/build.sh [--quick] [--no-install] [cmake configure arguments...]
#   --quick        only what a run needs: the simapp binary (no tests, no benchmarks); on a machine
#                  without a GPU the host backend only, even where nvcc is installed
#   --no-install   never install: stop, naming what CMake did not find, instead
# The CUDA backend is built when nvcc is found (SIMAPP_ENABLE_CUDA=AUTO), e.g.
#   scripts/build.sh -DSIMAPP_ENABLE_CUDA=OFF
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat << 'EOF'
Usage: scripts/build.sh [--quick] [--no-install] [cmake configure arguments...]
Configures and builds simapp in ./build (Release; SIMAPP_BUILD_DIR names another directory),
installing the Debian/Ubuntu packages CMake does not find (scripts/install_dependencies.sh).
  --quick        only what a run needs: the simapp binary (no tests, no benchmarks), and on a
                 machine without a GPU the host backend only, even where nvcc is installed
  --no-install   never install: stop, naming what CMake did not find, instead
  -h, --help     print this and exit
Without --quick, everything is built, the tests too, and the CUDA backend when nvcc is found:
  scripts/build.sh -DSIMAPP_ENABLE_CUDA=OFF           the host backend only
  scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=80      for an A100 (default 90: H100/H200)
Then: build/app/simapp inputs/case.yaml; ctest --test-dir build
EOF
}

install=yes
quick=no
cmake_args=()
for argument in "$@"; do
  case $argument in
    -h | --help)
      usage
      exit 0
      ;;
    --no-install) install=no ;;
    --quick) quick=yes ;;
    *) cmake_args+=("$argument") ;;
  esac
done
build_dir=${SIMAPP_BUILD_DIR:-build}
warnings_as_errors=OFF
[[ "${CI:-}" == "true" ]] && warnings_as_errors=ON
mkdir -p "$build_dir"
log="$build_dir/configure.log"

# Whether the NVIDIA driver lists a GPU on this machine.
has_gpu() {
  command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q '^GPU '
}

# --quick without a GPU leaves the CUDA backend out (nvcc compiles every kernel more slowly, and
# its host kernels run slower); the mark tells a later full build to let CMake decide again. The
# arguments given on the command line come after these, so they win.
host_only_mark="$build_dir/.quick_host_only"
backend_args=()
forget_host_only=no
if [[ $quick == yes ]] && ! has_gpu; then
  backend_args=(-DSIMAPP_ENABLE_CUDA=OFF)
  touch "$host_only_mark"
elif [[ -e $host_only_mark ]]; then
  backend_args=(-DSIMAPP_ENABLE_CUDA=AUTO)
  forget_host_only=yes
fi
targets=()
[[ $quick == yes ]] && targets=(--target simapp)

# The build directory's generator when it has one, else Ninja where there is one, else Make.
generator() {
  local cached
  cached=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build_dir/CMakeCache.txt" 2> /dev/null || true)
  if [[ -n $cached ]]; then
    echo "$cached"
  elif command -v ninja > /dev/null; then
    echo Ninja
  else
    echo "Unix Makefiles"
  fi
}

configure() {
  if ! command -v cmake > /dev/null; then
    echo "CMake Error: cmake is not installed" > "$log"
    return 1
  fi
  cmake -S . -B "$build_dir" -G "$(generator)" -DCMAKE_BUILD_TYPE=Release \
    -DSIMAPP_WARNINGS_AS_ERRORS=$warnings_as_errors "${backend_args[@]}" "${cmake_args[@]}" > "$log" 2>&1
}

# What stopped CMake: its first error, up to the call stack.
cmake_problem() {
  sed -n '/CMake Error/,/^Call Stack\|^$/p' "$log" | grep -v '^Call Stack\|^$' | head -6 | sed 's/^ */  /'
}

installed=nothing
if ! configure; then
  if [[ $install == no ]]; then
    echo "build.sh: cannot configure with what this machine has, and --no-install forbids installing:" >&2
    cmake_problem >&2
    echo "  (the whole log: $log; point CMAKE_PREFIX_PATH at libraries installed elsewhere)" >&2
    exit 1
  fi
  echo "build.sh: cannot configure with what this machine has; installing what is missing:"
  cmake_problem
  scripts/install_dependencies.sh
  installed="the packages listed above"
  if ! configure; then
    echo "build.sh: CMake still cannot configure:" >&2
    cmake_problem >&2
    echo "  (the whole log: $log)" >&2
    exit 1
  fi
fi
if [[ $forget_host_only == yes ]]; then rm "$host_only_mark"; fi
sed -n '/^--   found /d; s/^-- \(simapp .* configuration:\)/\1/p; s/^--   /  /p' "$log"
echo "build.sh: found $(sed -n 's/^--   found *//p' "$log"); installed: $installed"
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
