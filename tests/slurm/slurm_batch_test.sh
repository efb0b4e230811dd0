#!/usr/bin/env bash
# The batch scripts under a real Slurm: starts munged, slurmctld and slurmd on this machine
# with a slurm.conf of its own (SLURM_CONF, ports of its own, one node that declares 64 CPUs and
# 4 GPUs, stand-ins that jobs asking for GPUs can be scheduled on), then
#   1. submits scripts/slurm/cpu.sbatch (2 ranks, srun --mpi=pmix) with `sbatch --wait` and
#      checks its snapshots equal those of the same run started directly with mpirun, bit for bit;
#   2. submits the timing sweep's CPU job array (2 tasks) and checks each wrote its CSV rows,
#      every mode bit-identical;
#   3. checks every GPU script passes `sbatch --test-only` against the GPU-declaring node;
# and stops the daemons. Skipped (exit 77) without root or without slurm-wlm and munge.
# usage: slurm_batch_test.sh SIMAPP_SOURCE_DIR SIMAPP_BINARY MPIEXEC
set -euo pipefail
source_dir=$1 binary=$2 mpiexec=$3
for tool in munged slurmctld slurmd sbatch sinfo; do
  command -v "$tool" > /dev/null || { echo "slurm test: no $tool (Debian: slurm-wlm, munge): skipped"; exit 77; }
done
[[ $(id -u) -eq 0 ]] || { echo "slurm test: the daemons need root here: skipped"; exit 77; }

work=$(mktemp -d /tmp/simapp-slurm-XXXXXX)
export SLURM_CONF=$work/slurm.conf
stop() {
  for daemon in slurmd slurmctld munged; do
    [[ -f $work/$daemon.pid ]] && kill "$(cat "$work/$daemon.pid")" 2> /dev/null || true
  done
  sleep 1
  rm -rf "$work"
}
trap stop EXIT
fail() {
  echo "slurm test: FAILED: $*" >&2
  tail -n 20 "$work"/*.log "$work"/*.out 2> /dev/null >&2 || true
  exit 1
}

host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir -p "$work/state" "$work/spool"
head -c 1024 /dev/urandom > "$work/munge.key"
chmod 600 "$work/munge.key"
cat > "$SLURM_CONF" << CONF
ClusterName=simapp-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
GresTypes=gpu
NodeName=$host CPUs=64 Gres=gpu:4 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
# slurmd counts a node's GPUs by their device files: four harmless ones stand in for them.
printf 'Name=gpu File=%s\n' /dev/null /dev/zero /dev/full /dev/urandom > "$work/gres.conf"

munged --socket="$work/munge.socket" --key-file="$work/munge.key" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munge.seed" --force || fail "munged did not start"
slurmctld -i || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"
for _ in $(seq 60); do
  sinfo -h -o %T 2> /dev/null | grep -q idle && break
  sleep 0.5
done
sinfo -h -o %T | grep -q idle || fail "the node did not become idle: $(sinfo 2>&1)"
echo "slurm test: slurmctld and slurmd up on $host (ports $port, $((port + 1)))"

cd "$source_dir"
# Two cores here: one OpenMP thread a task, waiting passively, or tasks spin against each other.
export OMP_WAIT_POLICY=PASSIVE
run_args=(inputs/case.yaml --overwrite --set time.sim_time=4 --set output.every=2)

# 1. The CPU script, 2 ranks, against a direct mpirun.
SIMAPP_BINARY=$binary sbatch --wait --quiet --ntasks=2 --chdir="$source_dir" --output="$work/cpu.out" \
  scripts/slurm/cpu.sbatch "${run_args[@]}" --set output.dir="$work/batch" ||
  fail "cpu.sbatch did not complete"
grep -q "^d_te:" "$work/cpu.out" || fail "cpu.sbatch printed no summary"
OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  "$mpiexec" -n 2 "$binary" "${run_args[@]}" --backend host --set output.dir="$work/direct" > "$work/direct.out" 2>&1 ||
  fail "the direct mpirun failed"
for snapshot in "$work"/direct/fields_*.h5; do
  /usr/bin/python3 scripts/compare_fields.py "$snapshot" "$work/batch/$(basename "$snapshot")" ||
    fail "$(basename "$snapshot") differs between the batch job and mpirun"
done
echo "slurm test: cpu.sbatch (2 ranks, srun --mpi=pmix) equals mpirun bit for bit ($(ls "$work"/direct/fields_*.h5 | wc -l) snapshots)"

# 2. The timing sweep's CPU job array, two tasks.
SIMAPP_BINARY=$binary sbatch --wait --quiet --array=0-1 --cpus-per-task=1 --chdir="$source_dir" --output="$work/array-%a.out" \
  --export=ALL,SIMAPP_SWEEP_OUT="$work/sweep" scripts/slurm/timing_sweep_array_cpu.sbatch ||
  fail "the CPU job array did not complete"
for grid in 64x32 128x64; do
  csv=$work/sweep/$grid.csv
  [[ -s $csv ]] || fail "array task for $grid wrote no $csv"
  rows=$(tail -n +2 "$csv" | wc -l)
  ((rows > 0)) || fail "$csv has no rows"
  tail -n +2 "$csv" | grep -qv ",True," && fail "$csv: some mode is not bit-identical"
  echo "slurm test: array task $grid: $rows rows, every mode bit-identical"
done

# 3. The GPU scripts against a node that declares GPUs.
for script in scripts/slurm/one_node_4gpus.sbatch scripts/slurm/timing_sweep_array.sbatch; do
  sbatch --test-only "$script" > "$work/test-only.out" 2>&1 || fail "$script: $(cat "$work/test-only.out")"
done
sbatch --test-only --nodes=1 scripts/slurm/multi_node.sbatch > "$work/test-only.out" 2>&1 ||
  fail "multi_node.sbatch: $(cat "$work/test-only.out")"
echo "slurm test: the GPU scripts pass sbatch --test-only (multi_node.sbatch with --nodes=1: one node here)"
