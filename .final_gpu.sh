#!/usr/bin/env bash
set -u
exec > >(tee -a "$OUT/final.log") 2>&1
R=$PWD
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMAPP_ENABLE_CUDA=ON -DSIMAPP_ENABLE_NCCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/c.log 2>&1
cmake --build build-gpu -j16 > /tmp/b.log 2>&1 || { grep error /tmp/b.log | head; exit 1; }
ctest --test-dir build-gpu -L gpu -j4 2>&1 | grep -E "tests passed|Failed"
csv=$OUT/final_timing.csv; echo "granularity,nx,nz,mode,us_per_step,kernels_per_step" > $csv
run() {  # granularity nx nz
  local steps=$(( 400000000 / ($2 * $3) )); ((steps > 2000)) && steps=2000; ((steps < 200)) && steps=200
  local st=$(python3 -c "nx,nz=$2,$3; d=min(20000/nx,10000/nz); print(repr($steps*1.5*d/450))")
  build-gpu/app/simapp $R/inputs/case.yaml --mode compare --overwrite --set grid.nx=$2 --set grid.nz=$3 \
    --set time.sim_time=$st --set execution.granularity=$1 --set output.dir=/tmp/p/$1$2 > /tmp/p.log 2>&1 || tail -2 /tmp/p.log
  python3 -c "
import json; t=json.load(open('/tmp/p/$1$2/timing.json'))
for m in t['modes']: print(','.join(str(x) for x in ['$1',$2,$3,m['mode'],round(m['time_per_step_us'],1),m['kernels_per_step']]))
print('$1 $2x$3', ' '.join(m['mode']+'='+format(m['time_per_step_us'],'.1f') for m in t['modes']), 'identical', t['identical'])" | tee -a /tmp/rows | grep -v "^$1," ; grep "^$1,$2," /tmp/rows >> $csv
}
for g in "128 64" "400 200" "1024 512" "4096 2048"; do run stage $g; run fused $g; done
run fine 128 64
build-gpu/app/simapp inputs/case.yaml --overwrite --set output.dir=/tmp/case 2>&1 | grep -E "d_te|timing"
