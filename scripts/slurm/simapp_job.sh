#!/bin/bash
# What every batch script of scripts/slurm does before it starts simapp; sourced by them once
# they have found the repository, SIMAPP_ROOT (Slurm runs a copy of a batch script from its spool
# directory, so $0 does not lead there: each script finds it from the path it was submitted by).
#   - Sources the site's environment (module loads, library paths: what simapp needs on the
#     compute nodes): the file SIMAPP_SITE_ENV names, else scripts/slurm/site_env.sh where it
#     exists (a site's own, not in git: start from site_env.sh.example).
#   - simapp: the binary to run, SIMAPP_BINARY, else build/app/simapp in the repository.
#   - simapp_job_arguments ARGUMENTS...: sets config and options from a job's
#     [CONFIG.yaml] [simapp options...].
#   - simapp_wall_limit: sets wall_limit to the options that give simapp the job's time left.
# Both variables are exported, for the scripts a batch script runs.
export SIMAPP_ROOT

site_env=${SIMAPP_SITE_ENV:-$SIMAPP_ROOT/scripts/slurm/site_env.sh}
if [[ -n ${SIMAPP_SITE_ENV:-} && ! -r $SIMAPP_SITE_ENV ]]; then
  echo "simapp: error: SIMAPP_SITE_ENV: cannot read '$SIMAPP_SITE_ENV'" >&2
  exit 2
fi
if [[ -r $site_env ]]; then
  echo "simapp: site environment: $site_env"
  # Module systems' scripts are written for neither -e, -u nor pipefail.
  set +euo pipefail
  # shellcheck source=/dev/null
  source "$site_env"
  set -euo pipefail
fi

export SIMAPP_BINARY=${SIMAPP_BINARY:-$SIMAPP_ROOT/build/app/simapp}
simapp=$SIMAPP_BINARY
if [[ ! -x $simapp ]]; then
  echo "simapp: error: SIMAPP_BINARY: no simapp at '$simapp' (build it, or name one)" >&2
  exit 2
fi

# config and options from a job's arguments [CONFIG.yaml] [simapp options...]: the first is the
# configuration unless it is an option (starts with "-" and names no file); default
# inputs/case.yaml of the repository. A file named with a leading "-" goes to simapp as ./NAME,
# which it cannot take for an option. Relative paths are the job's working directory's (the
# submit directory, or sbatch --chdir).
simapp_job_arguments() {
  config=$SIMAPP_ROOT/inputs/case.yaml
  if (($#)) && [[ $1 != -* || -f $1 ]]; then
    config=$1
    shift
  fi
  if [[ $config == -* ]]; then config=./$config; fi
  options=("$@")
}

# wall_limit: simapp's wall limit, the seconds to the job's end (SLURM_JOB_END_TIME, which Debian
# 12's Slurm 22.05 does not set yet, else squeue's end time; none without a time limit) less a
# margin of 60 s, a quarter of them in a job of under 4 minutes; as options for simapp, before
# the user's (a later --set wins).
simapp_wall_limit() {
  local end=${SLURM_JOB_END_TIME:-} left margin
  if [[ -z $end && -n ${SLURM_JOB_ID:-} ]]; then
    end=$(squeue -h -j "$SLURM_JOB_ID" -o %e 2> /dev/null || true)
    if [[ $end == [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T* ]]; then end=$(date -d "$end" +%s); else end=; fi
  fi
  wall_limit=()
  [[ $end =~ ^[0-9]+$ ]] || return 0
  left=$((end - $(date +%s)))
  margin=$((left < 240 ? left / 4 : 60))
  if ((left - margin > 0)); then
    wall_limit=(--set "execution.wall_limit=$((left - margin))")
    echo "simapp: the job ends in ${left} s: execution.wall_limit=$((left - margin))"
  fi
}
