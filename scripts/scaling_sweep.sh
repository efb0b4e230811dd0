#!/usr/bin/env bash
# Scaling sweep over GPUs: `simapp --mode compare` (eager_sync, eager, graph) on 1, 2, 4 …
# ranks, one GPU each, with halos by MPI and by NCCL, in three sweeps:
#   weak:   a fixed block per GPU (default 4096 x 2048), the global grid grows with the ranks;
#   strong: a fixed global grid (default 8192 x 4096) split over the ranks;
#   size:   the largest GPU count, grids from launch-bound to bandwidth-bound (--sizes).
# Writes one CSV row per mode and run; plot and tabulate with scripts/plot_scaling.py.
# Usage:
#   scripts/scaling_sweep.sh [--simapp PATH] [--out DIR] [--gpus "1 2 4"] [--per-gpu NX NZ]
#                            [--strong NX NZ] [--sizes "400x200 1024x512 …"] [--steps N]
#                            [--halos "mpi nccl"] [--launcher "mpirun -n"]
# Layouts: N ranks as px x pz with pz = 2^floor(log2(N)/2) (2 -> 2x1, 4 -> 2x2, 8 -> 4x2).
set -euo pipefail
cd "$(dirname "$0")/.."

simapp=build/app/simapp
out=out/scaling_sweep
gpus="1 2 4"
per_gpu=(4096 2048)
strong=(8192 4096)
sizes="400x200 1024x512 2048x1024"
steps=100
launcher="mpirun -n"
halo_choices="mpi nccl"
while (($#)); do
  case "$1" in
    --simapp) simapp=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    --per-gpu) per_gpu=("$2" "$3"); shift 3 ;;
    --strong) strong=("$2" "$3"); shift 3 ;;
    --sizes) sizes=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --halos) halo_choices=$2; shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    *) echo "scaling_sweep: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -x "$simapp" ]] || { echo "scaling_sweep: error: $simapp is not an executable (build first)" >&2; exit 2; }

mkdir -p "$out/runs"
csv="$out/scaling.csv"
echo "sweep,gpus,px,pz,nx,nz,cells_per_gpu,halo,steps_per_graph,steps,mode,time_per_step_us,launches_per_step,graphs,identical,processor" > "$csv"

layout_of() {  # ranks -> "px pz"
  awk -v n="$1" 'BEGIN { pz = 2 ^ int(log(n) / log(2) / 2 + 1e-9); print n / pz, pz }'
}

run_compare() {  # sweep ranks px pz nx nz halo
  local sweep=$1 ranks=$2 px=$3 pz=$4 nx=$5 nz=$6 halo=$7
  # sim_time = steps · dt with dt = 1.5 · min(dx, dz) / 450 on the default 20 km × 10 km domain.
  local sim_time; sim_time=$(awk -v nx="$nx" -v nz="$nz" -v s="$steps" \
    'BEGIN { dx = 20000 / nx; dz = 10000 / nz; d = dx < dz ? dx : dz; printf "%.17g", s * 1.5 * d / 450 }')
  local dir="$out/runs/${sweep}_${ranks}gpu_${nx}x${nz}_${halo}"
  echo "scaling_sweep: $sweep, $ranks GPU(s) as ${px}x${pz}, ${nx}x${nz}, halos by $halo"
  $launcher "$ranks" "$simapp" inputs/case.yaml --mode compare --overwrite \
    --set grid.nx="$nx" --set grid.nz="$nz" --set time.sim_time="$sim_time" \
    --set parallel.ranks="$px,$pz" --set parallel.halo="$halo" --set output.dir="$dir" > "$dir.log" 2>&1 \
    || { cat "$dir.log" >&2; exit 1; }
  /usr/bin/python3 - "$dir/timing.json" "$sweep" >> "$csv" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
px, pz = t["layout"]
for m in t["modes"]:
    print(",".join(str(v) for v in [sys.argv[2], t["ranks"], px, pz, t["nx"], t["nz"], t["cells"] // t["ranks"],
          t["halo"], t["steps_per_graph"], m["steps"], m["mode"], m["time_per_step_us"], m["launches_per_step"],
          m.get("graphs", ""), t["identical"], '"' + t["processor"] + '"']))
PY
}

for ranks in $gpus; do
  read -r px pz < <(layout_of "$ranks")
  read -r -a halos <<< "$halo_choices"
  ((ranks == 1)) && halos=(mpi)  # one rank exchanges nothing
  for halo in "${halos[@]}"; do
    run_compare weak "$ranks" "$px" "$pz" $((per_gpu[0] * px)) $((per_gpu[1] * pz)) "$halo"
    run_compare strong "$ranks" "$px" "$pz" "${strong[0]}" "${strong[1]}" "$halo"
  done
done
ranks=${gpus##* }
if ((ranks > 1)); then
  read -r px pz < <(layout_of "$ranks")
  read -r -a halos <<< "$halo_choices"
  for size in $sizes; do
    for halo in "${halos[@]}"; do run_compare size "$ranks" "$px" "$pz" "${size%x*}" "${size#*x}" "$halo"; done
  done
fi
echo "scaling_sweep: wrote $csv"
