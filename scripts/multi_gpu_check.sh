#!/usr/bin/env bash
# On a node with several GPUs, everything docs/performance.md's "Several ranks and GPUs" section reports:
#   1. build with the CUDA backend and NCCL (build-gpu/), 2. the GPU tests (ctest -L gpu),
#   3. the default case on 1, 2, 4 … GPUs with halos by MPI and by NCCL, final fields compared
#      bit for bit with the one-GPU run (scripts/compare_fields.py),
#   4. the scaling sweep (scripts/scaling_sweep.sh) and its tables and plot (scripts/plot_scaling.py).
# usage: scripts/multi_gpu_check.sh [--gpus "1 2 4"] [--out DIR] [--build DIR] [--steps N] [--sim-time S]
# --steps: steps per timed run of the sweep; --sim-time: simulated seconds of the default case (1000).
# Logs and results go to DIR (default out/multi_gpu). PYTHON names the Python with h5py and
# matplotlib (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

gpus="1 2 4"
out=out/multi_gpu
build=build-gpu
steps=100
sim_time=1000
python=${PYTHON:-python3}
while (($#)); do
  case "$1" in
    --gpus) gpus=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --sim-time) sim_time=$2; shift 2 ;;
    *) echo "multi_gpu_check: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
log() { echo "multi_gpu_check: $*"; }

log "GPUs: $( (nvidia-smi -L 2>/dev/null || true) | wc -l)"
nvidia-smi topo -m > "$out/topology.txt" 2>&1 || true
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMAPP_ENABLE_CUDA=ON -DSIMAPP_ENABLE_NCCL=ON \
  > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -A8 error "$out/build.log" | head -40; exit 1; }
log "built $build"

ctest --test-dir "$build" -L gpu --output-on-failure > "$out/ctest_gpu.log" 2>&1 && gpu_tests=passed || gpu_tests=FAILED
log "GPU tests: $(grep -E 'tests passed|tests failed' "$out/ctest_gpu.log") ($gpu_tests)"

# 3. The default case on every GPU count and halo back-end, against the one-GPU run.
mkdir -p "$out/fields"
runs=()
for ranks in $gpus; do
  halos=(mpi nccl)
  ((ranks == 1)) && halos=(mpi)
  for halo in "${halos[@]}"; do
    dir="$out/fields/${ranks}gpu_${halo}"
    mpirun -n "$ranks" "$build/app/simapp" inputs/case.yaml --overwrite --set output.dir="$dir" \
      --set time.sim_time="$sim_time" --set parallel.halo="$halo" > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
    log "$ranks GPU(s), halos by $halo: $(grep -E '^(d_mass|d_te|timing):' "$dir.log" | tr '\n' ' ')"
    final=$(ls "$dir"/fields_*.nc | sort | tail -1)
    runs+=("$final")
  done
done
"$python" scripts/compare_fields.py "${runs[@]}" | tee "$out/fields_compared.txt" || fields=DIFFER

# 4. Scaling.
scripts/scaling_sweep.sh --simapp "$build/app/simapp" --gpus "$gpus" --steps "$steps" --out "$out/scaling" \
  > "$out/scaling_sweep.log" 2>&1 || { tail -30 "$out/scaling_sweep.log"; exit 1; }
"$python" scripts/plot_scaling.py "$out/scaling/scaling.csv" | tee "$out/scaling_tables.md" ||
  log "plot_scaling failed (tables and plot can be made elsewhere from $out/scaling/scaling.csv)"
[[ "$gpu_tests" == passed && "${fields:-equal}" == equal ]]
