#!/usr/bin/env bash
# The batch scripts under a real Slurm: starts munged, slurmctld and slurmd on this machine
# with a slurm.conf of its own (SLURM_CONF, ports of its own, one node that declares 64 CPUs and
# 4 GPUs, stand-ins that jobs asking for GPUs can be scheduled on), then
#   1. checks every script in scripts/slurm/ with `bash -n`, that Slurm reads all of its #SBATCH
#      lines (none below a command), that it asks for --signal=TERM@120 or says why not, has the
#      account and partition placeholders and sources simapp_job.sh (the one place that reads the
#      job's end time), and that chain.sh refuses a bad N, a missing script and --overwrite;
#   2. runs the GPU scripts (one_node_4gpus.sbatch, multi_node.sbatch on one node), submitted from
#      a directory outside the repository, for real with a stand-in srun that the site
#      environment hook (SIMAPP_SITE_ENV) puts first on PATH, which records its arguments and hands
#      them to the real srun with --backend host appended (a later --backend wins), and checks
#      they wrote results, passed the user's options after their own and gave simapp the wall
#      limit left in the job;
#   3. at once: cpu.sbatch on one rank in a job of 2 minutes, which its --signal=TERM@120 stops
#      (SIGTERM to the rank, a checkpoint, exit 5); the timing sweep's CPU job array (2 tasks,
#      submitted from outside the repository) and one task of the GPU array (auto backend: the
#      host here), each writing its CSV rows, every mode bit-identical; sweep_array.sbatch over a
#      table of two rows in three tasks (each row's values and output.dir in its run.json, the
#      third task refused); chain.sh 1 cpu.sbatch -dash2.yaml (a configuration named with a
#      leading dash); a copy of cpu.sbatch outside the repository, refused without SIMAPP_ROOT
#      and run with it;
#   4. a run of cpu.sbatch (2 ranks, srun --mpi=pmix) as a chain of four jobs (chain.sh), each cut
#      by execution.wall_limit (half the time the uncut run takes here, so that one job cannot
#      finish it and four can, with room for a machine busier than during the uncut run) and continued with --restart latest, against the same run started
#      once directly with mpirun: every snapshot of that run present and equal bit for bit, and a
#      --restart latest after the chain finds the run complete;
# and stops the daemons. Skipped (exit 77) without root or without slurm-wlm and munge.
# usage: slurm_batch_test.sh SIMAPP_SOURCE_DIR SIMAPP_BINARY MPIEXEC
set -euo pipefail
shopt -s extglob
source_dir=$1 binary=$2 mpiexec=$3
for tool in munged slurmctld slurmd sbatch sinfo srun scontrol; do
  command -v "$tool" > /dev/null || { echo "slurm test: no $tool (Debian: slurm-wlm, munge): skipped"; exit 77; }
done
[[ $(id -u) -eq 0 ]] || { echo "slurm test: the daemons need root here: skipped"; exit 77; }
started=$SECONDS

work=$(mktemp -d /tmp/simapp-slurm-XXXXXX)
export SLURM_CONF=$work/slurm.conf
stop() {
  # Jobs a failure left, in this test's own cluster.
  [[ -f $work/slurmctld.pid ]] && scancel --quiet --user=root 2> /dev/null || true
  for daemon in slurmd slurmctld munged; do
    [[ -f $work/$daemon.pid ]] && kill "$(cat "$work/$daemon.pid")" 2> /dev/null || true
  done
  sleep 1
  rm -rf "$work"
}
trap stop EXIT
fail() {
  echo "slurm test: FAILED: $*" >&2
  tail -n 20 "$work"/*.log "$work"/*.out >&2 2> /dev/null || true
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
# Ended jobs stay known to scontrol for the test's whole length (the default, 300 s, forgets the
# first jobs of a slow machine's run before the test reads how they ended).
MinJobAge=3600
AccountingStorageType=accounting_storage/none
GresTypes=gpu
NodeName=$host CPUs=64 Gres=gpu:4 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
# slurmd counts a node's GPUs by their device files: four harmless ones stand in for them.
printf 'Name=gpu File=%s\n' /dev/null /dev/zero /dev/full /dev/urandom > "$work/gres.conf"

cd "$source_dir"
scripts=(scripts/slurm/*)

# 1. Every script parses; Slurm reads every #SBATCH line (it stops at the first command); each
#    batch script asks for the signal or says why not; chain.sh refuses what it must.
for script in "${scripts[@]}"; do
  bash -n "$script" || fail "$script: bash -n"
  awk '!/^[[:space:]]*(#|$)/ && !command { command = FNR }
       /^#SBATCH/ && command { print FILENAME ":" FNR ": #SBATCH below the command of line " command; bad = 1 }
       END { exit bad }' "$script" > "$work/directives.out" || fail "$(head -n 1 "$work/directives.out")"
  [[ $script == *.sbatch ]] || continue
  grep -q '^#SBATCH --signal=TERM@120$' "$script" || grep -q '^# No --signal' "$script" ||
    fail "$script neither asks for --signal=TERM@120 nor says why not"
  for placeholder in account partition; do
    grep -q "^##SBATCH --$placeholder=<$placeholder>$" "$script" || fail "$script has no $placeholder placeholder"
  done
  grep -q 'source "$SIMAPP_ROOT/scripts/slurm/simapp_job.sh"$' "$script" || fail "$script does not source simapp_job.sh"
done
# The job's end time is read in one place.
[[ $(grep -l 'SLURM_JOB_END_TIME:-' scripts/slurm/*) == scripts/slurm/simapp_job.sh ]] ||
  fail "the job's end time is read outside simapp_job.sh: $(grep -l 'SLURM_JOB_END_TIME:-' scripts/slurm/*)"
chain_refuses() {  # WHAT ARGUMENTS...
  local what=$1
  shift
  if scripts/slurm/chain.sh "$@" > "$work/chain-refusal.out" 2>&1; then fail "chain.sh accepted $what"; fi
  [[ $(wc -l < "$work/chain-refusal.out") -eq 1 ]] && grep -q '^chain: error: ' "$work/chain-refusal.out" ||
    fail "chain.sh refused $what without a one-line error: $(cat "$work/chain-refusal.out")"
}
chain_refuses "N = 0" 0 scripts/slurm/cpu.sbatch
chain_refuses "N = x" x scripts/slurm/cpu.sbatch
chain_refuses "a missing script" 3 scripts/slurm/no_such.sbatch
chain_refuses "--overwrite" 3 scripts/slurm/cpu.sbatch inputs/case.yaml --overwrite
scripts/slurm/chain.sh --help | grep -q '^usage: ' || fail "chain.sh --help prints no usage"
echo "slurm test: ${#scripts[@]} scripts parse and keep their #SBATCH lines first; chain.sh refuses bad arguments"

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

# Two cores here: one OpenMP thread a task, waiting passively, or tasks spin against each other.
export OMP_WAIT_POLICY=PASSIVE SIMAPP_BINARY=$binary
job_field() {  # JOB FIELD: the field of `scontrol show job`
  scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
wait_for_jobs() {  # SECONDS JOB...: until every job has ended
  local deadline=$((SECONDS + $1)) job
  shift
  for job in "$@"; do
    while [[ $(job_field "$job" JobState) =~ ^(PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED)$ ]]; do
      ((SECONDS < deadline)) || fail "job $job has not ended in time ($(job_field "$job" JobState))"
      sleep 0.5
    done
  done
}

# 2. The GPU scripts, for real with the host backend: a stand-in srun (and nvidia-smi, where no
#    GPU answers, for a script that would ask it) first on PATH.
mkdir -p "$work/bin"
cat > "$work/bin/srun" << STANDIN
#!/bin/bash
# stand-in srun: records its arguments, one a line, and runs them under the real srun with the
# host backend (a later --backend wins)
printf '%s\n' "\$@" > "$work/srun-\$SLURM_JOB_ID.args"
exec $(command -v srun) "\$@" --backend host
STANDIN
if ! nvidia-smi -L > /dev/null 2>&1; then
  printf '%s\n' '#!/bin/sh' '# stand-in nvidia-smi: the four GPUs the node declares' \
    'for i in 0 1 2 3; do echo "GPU $i: stand-in"; done' > "$work/bin/nvidia-smi"
fi
chmod +x "$work/bin/"*
# The stand-ins come through the site's environment hook (SIMAPP_SITE_ENV), as a module system's
# PATH would: written for neither set -u nor set -e, as such scripts are.
cat > "$work/site_env.sh" << SITE
PATH=$work/bin:\$PATH
test -n "\$A_VARIABLE_NO_ONE_SET" && echo "never printed"
false
SITE
# Submitted from a directory outside the repository, by the scripts' full paths.
mkdir -p "$work/elsewhere"
user_options=(--set grid.nx=100 --set grid.nz=50 --set time.sim_time=20 --set output.every=10)
declare -A gpu_job
for script in one_node_4gpus multi_node; do
  gpu_job[$script]=$(cd "$work/elsewhere" && SIMAPP_SITE_ENV=$work/site_env.sh sbatch --parsable --nodes=1 \
    --ntasks-per-node=2 --cpus-per-task=1 --output="$work/$script.out" "$source_dir/scripts/slurm/$script.sbatch" \
    "$source_dir/inputs/case.yaml" "${user_options[@]}" --set output.dir="$work/$script")
done
wait_for_jobs 120 "${gpu_job[@]}"
for script in one_node_4gpus multi_node; do
  out=$work/$script
  [[ $(job_field "${gpu_job[$script]}" ExitCode) == 0:0 ]] && grep -q "^d_te:" "$out.out" ||
    fail "$script.sbatch did not complete"
  grep -qx "simapp: site environment: $work/site_env.sh" "$out.out" || fail "$script.sbatch did not name the site hook"
  snapshots=$(ls "$out"/fields_*.nc 2> /dev/null | wc -l)
  ((snapshots == 3)) || fail "$script.sbatch wrote $snapshots snapshots, not 3"
  args=$(grep -lx -- "output.dir=$out" "$work"/srun-*.args) || fail "$script.sbatch did not call srun"
  limit=$(sed -n 's/^execution\.wall_limit=//p' "$args")
  expected=" $binary $source_dir/inputs/case.yaml --backend cuda --set execution.wall_limit=$limit ${user_options[*]}"
  [[ $(tr '\n' ' ' < "$args") == "--mpi=pmix "*"$expected --set output.dir=$out " ]] ||
    fail "$script.sbatch ran: srun $(tr '\n' ' ' < "$args")"
  time_limit=$(($(sed -n 's/^#SBATCH --time=0*\([0-9]*\):00:00$/\1/p' "scripts/slurm/$script.sbatch") * 3600))
  ((limit > time_limit - 120 && limit <= time_limit - 60)) ||
    fail "$script.sbatch: execution.wall_limit=$limit in a job of $time_limit s"
  grep -q "^  limit .* $limit s" "$out.out" || fail "$script.sbatch: simapp's header shows no wall limit of $limit s"
  echo "slurm test: $script.sbatch (submitted from outside the repository; stand-in srun through the site hook):" \
    "$snapshots snapshots; srun got the script's options (wall limit $limit s) and then the user's"
done

# 3. A signal, and the timing sweeps' job arrays, at once. The user's --backend host repeats the
#    script's own (simapp once refused a second --backend).
signal_job=$(sbatch --parsable --ntasks=1 --time=2 --chdir="$source_dir" --output="$work/signal.out" \
  scripts/slurm/cpu.sbatch inputs/case.yaml --backend host --set grid.nx=100 --set grid.nz=50 --set time.sim_time=1e6 \
  --set output.every=1e6 --set output.checkpoint_every=1e6 --set output.dir="$work/signal")
cpu_array=$(cd "$work/elsewhere" && sbatch --parsable --array=0-1 --cpus-per-task=1 --output="$work/array-%a.out" \
  --export=ALL,SIMAPP_SWEEP_OUT="$work/sweep",SIMAPP_SWEEP_REPEATS=2,SIMAPP_SWEEP_STEPS=128 \
  "$source_dir/scripts/slurm/timing_sweep_array_cpu.sbatch")
# A parameter sweep from a table (two rows among comments and a blank line; task 2 has none),
# submitted from the directory that holds the table and the configuration.
mkdir -p "$work/parameters"
cat > "$work/parameters/table.txt" << 'TABLE'
# cfl   columns
time.cfl=0.5 grid.nx=40

time.cfl=1.25 grid.nx=60
TABLE
printf '%s\n' 'case: thermal' 'grid: {nx: 20, nz: 20}' 'time: {sim_time: 10}' 'output: {every: 10}' \
  > "$work/parameters/case.yaml"
sweep_array=$(cd "$work/parameters" && sbatch --parsable --array=0-2 --output="$work/parameters-%a.out" \
  "$source_dir/scripts/slurm/sweep_array.sbatch" table.txt case.yaml --set grid.nz=30)
# A configuration named with a leading "-", through chain.sh, from the directory that holds it.
mkdir -p "$work/dash"
printf '%s\n' 'grid: {nx: 20, nz: 20}' 'time: {sim_time: 10}' 'output: {every: 10, dir: dash-out}' > "$work/dash/-dash2.yaml"
dash_job=$(cd "$work/dash" && SBATCH_OUTPUT="$work/dash.out" "$source_dir/scripts/slurm/chain.sh" 1 --ntasks=1 -- \
  "$source_dir/scripts/slurm/cpu.sbatch" -dash2.yaml) || fail "chain.sh refused -dash2.yaml: $dash_job"
# A copy of a batch script, outside the repository: SIMAPP_ROOT names the repository, else the
# job stops at once with one line that says so.
cp scripts/slurm/cpu.sbatch "$work/elsewhere/copy.sbatch"
copy_jobs=()
for root in "" "$source_dir"; do
  copy_jobs+=("$(cd "$work/elsewhere" && SIMAPP_ROOT=$root sbatch --parsable --ntasks=1 \
    --output="$work/copy-${#copy_jobs[@]}.out" copy.sbatch "${user_options[@]}" --set output.dir="$work/copy")")
done
gpu_array=$(PATH=$work/bin:$PATH sbatch --parsable --array=0 --cpus-per-task=1 --chdir="$source_dir" \
  --output="$work/gpu-array-%a.out" --export=ALL,SIMAPP_SWEEP_OUT="$work/gpu-sweep",SIMAPP_SWEEP_REPEATS=2,SIMAPP_SWEEP_STEPS=128 \
  scripts/slurm/timing_sweep_array.sbatch)
wait_for_jobs 300 "$signal_job" "${cpu_array}_0" "${cpu_array}_1" "${gpu_array}_0" "${sweep_array}_"{0,1,2} \
  "$dash_job" "${copy_jobs[@]}"
grep -q "^stopped by SIGTERM at step" "$work/signal.out" ||
  fail "cpu.sbatch's --signal=TERM@120 did not stop the rank: $(grep "^stopped" "$work/signal.out")"
# Exit code 5 from the batch shell itself (FAILED, not TIMEOUT: before the end of the job's time).
[[ $(job_field "$signal_job" JobState) == FAILED && $(job_field "$signal_job" ExitCode) == 5:0 ]] ||
  fail "the signalled job ended $(job_field "$signal_job" JobState) with $(job_field "$signal_job" ExitCode)"
ls "$work"/signal/checkpoint_*.h5 > /dev/null 2>&1 || fail "the signalled run wrote no checkpoint"
signal_limit=$(sed -n 's/^simapp: the job ends in [0-9]* s: execution.wall_limit=//p' "$work/signal.out")
[[ -n $signal_limit ]] && grep -q "^  limit .* $signal_limit s" "$work/signal.out" ||
  fail "cpu.sbatch gave simapp no wall limit in a job of 2 minutes"
stopped_at=$(sed -n 's/^stopped by SIGTERM at \(step [0-9]*\).*/\1/p' "$work/signal.out")
echo "slurm test: cpu.sbatch in a job of 2 minutes: SIGTERM from --signal=TERM@120 stopped the rank after" \
  "$(job_field "$signal_job" RunTime) at $stopped_at with a checkpoint, exit 5 (its wall limit: $signal_limit s)"
for csv in "$work"/sweep/64x32.csv "$work"/sweep/128x64.csv "$work"/gpu-sweep/64x32.csv; do
  [[ -s $csv ]] || fail "an array task wrote no $csv"
  rows=$(tail -n +2 "$csv" | wc -l)
  ((rows > 0)) || fail "$csv has no rows"
  tail -n +2 "$csv" | grep -qv ",True," && fail "$csv: some mode is not bit-identical"
  echo "slurm test: array task ${csv#"$work"/}: $rows rows, every mode bit-identical"
done

for task in 0 1; do
  summary=$work/parameters/sweep-$sweep_array/task_$task/run.json
  [[ $(job_field "${sweep_array}_$task" ExitCode) == 0:0 && -f $summary ]] ||
    fail "sweep task $task did not complete: $(tail -n 3 "$work/parameters-$task.out")"
  # Row 0: cfl 0.5 with 40 columns, row 1: 1.25 with 60; every task the user's grid.nz.
  values=$(/usr/bin/python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["config"]
print(c["time"]["cfl"], c["grid"]["nx"], c["grid"]["nz"], c["output"]["dir"])' "$summary")
  expected=("0.5 40 30 sweep-$sweep_array/task_0" "1.25 60 30 sweep-$sweep_array/task_1")
  [[ $values == "${expected[task]}" ]] || fail "sweep task $task ran with '$values', not '${expected[task]}'"
done
[[ $(job_field "${sweep_array}_2" ExitCode) == 2:0 ]] &&
  grep -qx "simapp: error: table.txt: no row 2 for array task 2 (the table has 2 rows, 0 to 1)" "$work/parameters-2.out" ||
  fail "sweep task 2, past the table's rows, ended $(job_field "${sweep_array}_2" ExitCode): $(cat "$work/parameters-2.out")"
echo "slurm test: sweep_array.sbatch (3 tasks, a table of 2 rows): task 0 and 1 ran their rows into" \
  "sweep-$sweep_array/task_0 and task_1; task 2 found no row"
[[ $(job_field "$dash_job" ExitCode) == 0:0 && -f $work/dash/dash-out/run.json ]] && grep -q "^d_te:" "$work/dash.out" &&
  grep -q "^  config    ./-dash2.yaml$" "$work/dash.out" ||
  fail "chain.sh 1 cpu.sbatch -dash2.yaml: $(job_field "$dash_job" ExitCode): $(tail -n 3 "$work/dash.out")"
echo "slurm test: chain.sh 1 cpu.sbatch -dash2.yaml ran ./-dash2.yaml"
[[ $(job_field "${copy_jobs[0]}" ExitCode) == 2:0 ]] &&
  grep -qx "simapp: error: SIMAPP_ROOT: no simapp repository at '.*': set SIMAPP_ROOT" "$work/copy-0.out" ||
  fail "a copy of cpu.sbatch outside the repository ended $(job_field "${copy_jobs[0]}" ExitCode): $(cat "$work/copy-0.out")"
[[ $(job_field "${copy_jobs[1]}" ExitCode) == 0:0 ]] && grep -q "^d_te:" "$work/copy-1.out" ||
  fail "a copy of cpu.sbatch with SIMAPP_ROOT did not complete: $(tail -n 3 "$work/copy-1.out")"
echo "slurm test: a copy of cpu.sbatch outside the repository: refused with one line, run with SIMAPP_ROOT"

# 4. A chain of four cpu.sbatch jobs, each cut by execution.wall_limit, against one uncut run.
run_args=(inputs/case.yaml --set grid.nx=320 --set grid.nz=160 --set time.sim_time=300 --set output.every=50
  --set output.checkpoint_every=50)
begin=$SECONDS
OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  "$mpiexec" -n 2 "$binary" "${run_args[@]}" --backend host --set output.dir="$work/direct" > "$work/direct.out" 2>&1 ||
  fail "the direct mpirun failed"
uncut=$((SECONDS - begin))
wall_limit=$(((uncut * 5 + 9) / 10))
((wall_limit >= 5)) || wall_limit=5
SBATCH_TIMELIMIT=5 scripts/slurm/chain.sh 4 --ntasks=2 --chdir="$source_dir" --output="$work/chain-%j.out" -- \
  scripts/slurm/cpu.sbatch "${run_args[@]}" --set output.dir="$work/chain" --set execution.wall_limit="$wall_limit" \
  > "$work/chain.ids" || fail "chain.sh failed: $(cat "$work/chain.ids")"
mapfile -t jobs < "$work/chain.ids"
((${#jobs[@]} == 4)) || fail "chain.sh printed ${#jobs[@]} job ids, not 4"
for n in 1 2 3; do
  [[ $(job_field "${jobs[n]}" Dependency) == "afterany:${jobs[n - 1]}"* ]] ||
    fail "job ${jobs[n]} depends on '$(job_field "${jobs[n]}" Dependency)', not afterany:${jobs[n - 1]}"
done
wait_for_jobs $((4 * wall_limit + 120)) "${jobs[@]}"
grep -q "no checkpoint in .* starting at step 0" "$work/chain-${jobs[0]}.out" ||
  fail "the first job did not start at step 0"
finished=
summary=
for n in 0 1 2 3; do
  out=$work/chain-${jobs[n]}.out exit_code=$(job_field "${jobs[n]}" ExitCode)
  if [[ -z $finished ]] && grep -q "^stopped by the wall-clock limit" "$out"; then
    [[ $exit_code == 5:0 ]] || fail "job $((n + 1)) stopped at the wall limit but ended with $exit_code"
    step=$(sed -n 's/^stopped by the wall-clock limit .* at \(step [0-9]*\) .*/\1/p' "$out")
    summary+=" job $((n + 1)): $step, exit 5;"
  elif [[ -z $finished ]] && grep -q "^d_te:" "$out"; then
    [[ $exit_code == 0:0 ]] || fail "job $((n + 1)) finished the run but ended with $exit_code"
    finished=$((n + 1))
    summary+=" job $((n + 1)): finished the run;"
  elif [[ -n $finished ]] && grep -q "the run is complete" "$out"; then
    [[ $exit_code == 0:0 ]] || fail "job $((n + 1)) found the run complete but ended with $exit_code"
    summary+=" job $((n + 1)): the run is complete;"
  else
    fail "job $((n + 1)) of the chain neither stopped at its wall limit nor finished the run: $(tail -n 3 "$out")"
  fi
done
[[ -n $finished ]] || fail "four jobs of $wall_limit s did not finish the run"
((finished > 1)) || fail "one job of $wall_limit s finished a run that took $uncut s uncut"
grep -q "^  limit .* $wall_limit s" "$work/chain-${jobs[0]}.out" ||
  fail "the user's --set execution.wall_limit did not win over the script's"
for snapshot in "$work"/direct/fields_*.nc; do
  /usr/bin/python3 scripts/compare_fields.py "$snapshot" "$work/chain/$(basename "$snapshot")" > /dev/null ||
    fail "$(basename "$snapshot") differs between the chain of jobs and the uncut mpirun"
done
[[ $(cd "$work/direct" && ls fields_*.nc) == "$(cd "$work/chain" && ls fields_*.nc)" ]] ||
  fail "the chain wrote other snapshots than the uncut run"
# A job after the last one finds the run complete (exit 0) whichever job finished it.
OMP_NUM_THREADS=1 "$binary" "${run_args[@]}" --backend host --set output.dir="$work/chain" --restart latest \
  > "$work/after-chain.out" 2>&1 || fail "--restart latest after the chain failed: $(cat "$work/after-chain.out")"
grep -q "the run is complete" "$work/after-chain.out" ||
  fail "the chain's run is not complete: $(cat "$work/after-chain.out")"
echo "slurm test: chain.sh 4 cpu.sbatch (2 ranks, wall limit $wall_limit s; uncut: $uncut s):$summary" \
  "$(ls "$work"/direct/fields_*.nc | wc -l) snapshots equal the uncut mpirun's bit for bit"
echo "slurm test: passed in $((SECONDS - started)) s"
