#!/bin/bash
# One task of a timing-sweep job array: the grid size of SLURM_ARRAY_TASK_ID, swept with
# scripts/timing_sweep.sh (every mode and granularity, `simapp --mode compare`, on whatever
# backend the task's node gives: CUDA where it has a GPU); its CSV is copied to
# SIMAPP_SWEEP_OUT (default out/sweep_array in the working directory)/<nx>x<nz>.csv; simapp is
# SIMAPP_BINARY, of the repository SIMAPP_ROOT (both set by scripts/slurm/simapp_job.sh);
# SIMAPP_SWEEP_REPEATS the rounds of each compare (default simapp's, 5), SIMAPP_SWEEP_STEPS the
# steps of each run (default timing_sweep.sh's, by grid size).
set -euo pipefail
sizes=("64 32" "128 64" "256 128" "512 256" "1024 512" "2048 1024" "4096 2048")
index=${SLURM_ARRAY_TASK_ID:?run as a job array task}
((index >= 0 && index < ${#sizes[@]})) || { echo "timing_sweep_task: no grid size for array index $index" >&2; exit 2; }
read -r nx nz <<< "${sizes[$index]}"
collected=${SIMAPP_SWEEP_OUT:-out/sweep_array}
out=$collected/runs/${nx}x${nz}
sweep_options=()
if [[ -n ${SIMAPP_SWEEP_REPEATS:-} ]]; then sweep_options=(--repeats "$SIMAPP_SWEEP_REPEATS"); fi
if [[ -n ${SIMAPP_SWEEP_STEPS:-} ]]; then sweep_options+=(--steps "$SIMAPP_SWEEP_STEPS"); fi
"${SIMAPP_ROOT:?}/scripts/timing_sweep.sh" --simapp "${SIMAPP_BINARY:?}" --out "$out" --grid "$nx" "$nz" --sizes-only \
  "${sweep_options[@]}"
mkdir -p "$collected" && cp "$out/sweep.csv" "$collected/${nx}x${nz}.csv"
