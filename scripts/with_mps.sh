#!/usr/bin/env bash
# Runs a command with an NVIDIA MPS control daemon for this node's GPUs, so that processes that
# share a GPU (more MPI ranks than GPUs) run their kernels side by side instead of taking turns.
#   scripts/with_mps.sh mpirun -n 4 build/app/simapp inputs/case.yaml
# The daemon's pipe and log directories are the user's own (a fresh directory under
# ${TMPDIR:-/tmp}); it serves the GPUs in CUDA_VISIBLE_DEVICES (all when unset) and is stopped
# when the command ends, however it ends; the command's exit status is this script's. Where a
# daemon already serves this process (a control pipe in CUDA_MPS_PIPE_DIRECTORY, by default
# /tmp/nvidia-mps), the command runs under that one. The daemon runs on this node only: under
# Slurm, use it in jobs of one node. NVIDIA_MPS_CONTROL names another control program.
set -euo pipefail
if (($# == 0)); then
  echo "usage: with_mps.sh COMMAND [ARGS...]" >&2
  exit 2
fi
control=${NVIDIA_MPS_CONTROL:-nvidia-cuda-mps-control}
existing=${CUDA_MPS_PIPE_DIRECTORY:-/tmp/nvidia-mps}
if [[ -e $existing/control ]]; then
  echo "with_mps: an MPS daemon already serves this job ($existing/control)" >&2
  exec "$@"
fi
if ! command -v "$control" >/dev/null; then
  echo "with_mps: error: $control not found (it comes with the NVIDIA driver)" >&2
  exit 127
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/simapp-mps.XXXXXX")
export CUDA_MPS_PIPE_DIRECTORY=$root/pipe CUDA_MPS_LOG_DIRECTORY=$root/log
mkdir -m 700 "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
child=
stop_daemon() {
  if [[ -e $CUDA_MPS_PIPE_DIRECTORY/control ]]; then
    echo quit | "$control" >/dev/null 2>&1 || true
    for _ in $(seq 100); do
      [[ -e $CUDA_MPS_PIPE_DIRECTORY/control ]] || break
      sleep 0.05
    done
  fi
  rm -rf "$root"
}
trap stop_daemon EXIT
# A signal to this script goes on to the command; the daemon is stopped once the command ends.
trap '[[ -n $child ]] && kill -TERM "$child" 2>/dev/null' TERM INT

if ! "$control" -d; then
  echo "with_mps: error: $control -d failed (log: $CUDA_MPS_LOG_DIRECTORY)" >&2
  exit 1
fi
for _ in $(seq 100); do
  [[ -e $CUDA_MPS_PIPE_DIRECTORY/control ]] && break
  sleep 0.05
done
if [[ ! -e $CUDA_MPS_PIPE_DIRECTORY/control ]]; then
  echo "with_mps: error: the MPS daemon did not open $CUDA_MPS_PIPE_DIRECTORY/control within 5 s" >&2
  cat "$CUDA_MPS_LOG_DIRECTORY"/control.log >&2 2>/dev/null || true
  exit 1
fi
echo "with_mps: MPS daemon started for GPUs ${CUDA_VISIBLE_DEVICES:-all} (pipe $CUDA_MPS_PIPE_DIRECTORY)" >&2

"$@" &
child=$!
status=0
wait "$child" || status=$?
# wait returns early (above 128) when a trapped signal arrives: wait again for the command.
if ((status > 128)); then
  status=0
  wait "$child" || status=$?
fi
exit "$status"
