#!/usr/bin/env bash
# Batch-safety checks on the CUDA backend (issue 10): build, GPU tests, default case, SIGTERM
# and restart, blow-up, 2 ranks writing snapshots by blocks, and the snapshot write time at
# 4096 x 2048. Logs go to $OUT.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
log=$OUT/gpu_check.log
exec > >(tee -a "$log") 2>&1
step() { echo; echo "=== $* ($(date +%T))"; }
step build
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMAPP_ENABLE_CUDA=ON -DSIMAPP_ENABLE_NCCL=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
cmake --build build-gpu -j16 > $OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head -30; exit 1; }
S=$PWD/build-gpu/app/simapp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
step "ctest -L gpu"
ctest --test-dir build-gpu -L gpu -j4 2>&1 | tail -4
step "ctest batch-safety tests (host backend, this machine)"
ctest --test-dir build-gpu -R "InterruptedRun|ErrorReport|OutputDirectory|FailedSnapshot|FullDisk|Checkpoint|OutputCli|snapshot_paths" -j8 2>&1 | tail -4
mkdir -p /tmp/g && cd /tmp/g
step "default case, cuda"
$S $OLDPWD/inputs/case.yaml --overwrite --set output.dir=case 2>&1 | tail -4
step "SIGTERM on the GPU, then --restart latest, against an uninterrupted run"
args="$OLDPWD/inputs/case.yaml --set time.sim_time=2000 --set output.every=100 --set output.checkpoint_every=100"
$S $args --set output.dir=ref > ref.out 2>&1; tail -2 ref.out
$S $args --set output.dir=term > term.out 2>&1 & pid=$!
while [ ! -e term/fields_003000.h5 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done; kill -TERM $pid; wait $pid; echo "exit $?"
grep -E "stopped|error" term.out; ls term | tail -3
$S $args --set output.dir=term --restart latest 2>&1 | grep -E "restarting|d_te|error"
/usr/bin/python3 $OLDPWD/scripts/compare_fields.py ref/fields_012000.h5 term/fields_012000.h5 ref/fields_006000.h5 2>&1 | head -3
step "blow-up on the GPU"
$S $OLDPWD/inputs/case.yaml --set case=gravity_waves --set grid.nx=40 --set grid.nz=20 --set grid.zlen=40000 \
  --set time.sim_time=600 --set output.every=50 --set output.checkpoint_every=50 --set output.dir=gw 2>&1 | tail -1; echo "exit ${PIPESTATUS[0]}"
ls gw
step "2 ranks on the GPU, snapshots by blocks, against 1 rank"
mpirun -n 2 --oversubscribe $S $OLDPWD/inputs/case.yaml --set output.dir=two 2>&1 | grep -E "d_te|error"
/usr/bin/python3 $OLDPWD/scripts/compare_fields.py case/fields_006000.h5 two/fields_006000.h5
step "snapshot write time, 4096 x 2048, 2 steps, snapshots at t = 0 and the end"
for every in 0 1; do
  /usr/bin/time -f "wall %e s, max RSS %M KB" $S $OLDPWD/inputs/case.yaml --set grid.nx=4096 --set grid.nz=2048 \
    --set time.sim_time=0.03 --set output.every=$every --set output.dir=big$every 2>&1 | grep -E "timing|wall|error"
done
ls -la big1
