#!/usr/bin/env bash
# Submits a run longer than one job's walltime as a chain of N batch jobs, each continuing the
# run where the one before it stopped. See usage below (chain.sh --help).
set -euo pipefail

usage() {
  cat << 'USAGE'
usage: scripts/slurm/chain.sh N [SBATCH_OPTION... --] SCRIPT [CONFIG.yaml] [simapp options...]
       scripts/slurm/chain.sh N -- SCRIPT ...   (a SCRIPT whose name starts with "-")

Submits N jobs of the batch script SCRIPT (cpu.sbatch, one_node_4gpus.sbatch, multi_node.sbatch)
with its arguments plus --restart latest, each job waiting for the one before it to end however
it ends (sbatch --dependency=afterany:<previous job id>), and prints the job ids, one a line.

Each job decides from the run's own state, its checkpoints in output.dir, never from an exit
status: the first with no checkpoint starts at step 0; a job stopped before its walltime
(SIGTERM from --signal, or execution.wall_limit) writes a checkpoint and exits with 5, and the
next one continues from it bit for bit; once the run has finished, the jobs left end at once
with exit 0 ("the run is complete": a run given --restart ends with a checkpoint of its last
step). So N only has to be enough: a spare job only starts, finds the run complete and ends.

sbatch options for every job: before a "--" after N, or in sbatch's SBATCH_* environment
variables (SBATCH_TIMELIMIT, SBATCH_PARTITION, SBATCH_ACCOUNT, ...); the jobs see this
environment (SIMAPP_BINARY, SIMAPP_SRUN_MPI) as sbatch passes it. --overwrite and --restart
are refused among the simapp options (every job restarts from the latest checkpoint). The batch
script takes a CONFIG.yaml named with a leading "-" for the configuration where that file exists.

  scripts/slurm/chain.sh 4 scripts/slurm/cpu.sbatch inputs/case.yaml
  scripts/slurm/chain.sh 6 --nodes=4 --time=4:00:00 -- scripts/slurm/multi_node.sbatch big.yaml
USAGE
}

error() {
  echo "chain: error: $*" >&2
  exit 2
}

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  usage
  exit 0
fi
(($# >= 2)) || error "expects N and SCRIPT (chain.sh --help)"
count=$1
shift
[[ $count =~ ^[1-9][0-9]{0,3}$ ]] || error "N must be a whole number of jobs from 1 to 9999, got '$count'"

sbatch_options=()
if [[ $1 == -* ]]; then
  while (($#)) && [[ $1 != -- ]]; do
    sbatch_options+=("$1")
    shift
  done
  (($#)) || error "sbatch options after N end with '--' before SCRIPT (chain.sh --help)"
  shift
fi
(($#)) || error "expects SCRIPT after N (chain.sh --help)"
script=$1
shift
[[ -f $script && -r $script ]] || error "$script: no such batch script"
if [[ $script == -* ]]; then script=./$script; fi  # sbatch would take it for an option
for argument in "$@"; do
  case $argument in
    --overwrite | --overwrite=*)
      error "--overwrite collides with --restart latest, which every job of the chain is given" ;;
    --restart | --restart=*)
      error "$argument: every job of the chain is given --restart latest itself" ;;
  esac
done

previous=
for ((job = 1; job <= count; job++)); do
  dependency=()
  if [[ -n $previous ]]; then dependency=(--dependency="afterany:$previous"); fi
  if ! submitted=$(sbatch --parsable "${dependency[@]}" "${sbatch_options[@]}" "$script" "$@" --restart latest); then
    echo "chain: error: sbatch failed for job $job of $count${previous:+ (the jobs before it stay queued)}" >&2
    exit 1
  fi
  previous=${submitted%%;*}
  echo "$previous"
done
