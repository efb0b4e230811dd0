#!/usr/bin/env bash
# Timing sweep: runs `simapp --mode compare` (every execution mode the backend has) over grid
# sizes and the three granularities (K chosen automatically), then over steps_per_graph K at
# fixed grids, and writes one CSV row per mode and run. Usage:
#   scripts/timing_sweep.sh [--simapp PATH] [--out DIR] [--quick] [--grid NX NZ] [--sizes-only]
# --quick: three sizes and K ∈ {1, 4, 16} (a smoke test); --grid: that grid size only (the
# size sweep and the K sweep); --sizes-only: no K sweep. Plot with scripts/plot_timing.py;
# tabulate with scripts/mode_table.py.
set -euo pipefail
cd "$(dirname "$0")/.."

simapp=build/app/simapp
out=out/timing_sweep
quick=0
grid=""
k_sweep=1
while (($#)); do
  case "$1" in
    --simapp) simapp=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --grid) grid="$2 $3"; shift 3 ;;
    --sizes-only) k_sweep=0; shift ;;
    *) echo "timing_sweep: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -x "$simapp" ]] || { echo "timing_sweep: error: $simapp is not an executable (build first)" >&2; exit 2; }

if ((quick)); then
  sizes=("64 32" "128 64" "256 128")
  k_values=(1 4 16)
  k_grids=("64 32")
else
  sizes=("64 32" "128 64" "256 128" "512 256" "1024 512" "2048 1024" "4096 2048")
  k_values=(1 2 3 4 8 16 32 64)
  k_grids=("128 64" "1024 512")
fi
if [[ -n "$grid" ]]; then
  sizes=("$grid")
  k_grids=("$grid")
fi

mkdir -p "$out/runs"
csv="$out/sweep.csv"
echo "sweep,nx,nz,cells,granularity,steps_per_graph,steps,mode,time_per_step_us,kernels_per_step,launches_per_step,graphs,nodes_per_graph,capture_ms,instantiate_ms,speedup_vs_eager_sync,speedup_vs_eager,identical,processor,grid_barriers_per_step" > "$csv"
: > "$out/skipped.txt"

# Steps per run: enough to time small grids well, few on large ones, and at least 4 graphs.
steps_for() {  # cells k
  awk -v cells="$1" -v k="$2" 'BEGIN { s = int(4e8 / cells); if (s > 1000) s = 1000; if (s < 128) s = 128;
                                        if (s < 4 * k) s = 4 * k; print s }'
}

run_compare() {  # sweep nx nz granularity k
  local sweep=$1 nx=$2 nz=$3 granularity=$4 k=$5
  local cells=$((nx * nz))
  local steps; steps=$(steps_for "$cells" "${k:-1}")
  # sim_time = steps · dt with dt = 1.5 · min(dx, dz) / 450 on the default 20 km × 10 km domain.
  local sim_time; sim_time=$(awk -v nx="$nx" -v nz="$nz" -v s="$steps" \
    'BEGIN { dx = 20000 / nx; dz = 10000 / nz; d = dx < dz ? dx : dz; printf "%.17g", s * 1.5 * d / 450 }')
  local dir="$out/runs/${sweep}_${nx}x${nz}_${granularity}_k${k:-auto}"
  echo "timing_sweep: $sweep ${nx}x${nz} $granularity K=${k:-auto} ($steps steps)"
  "$simapp" inputs/case.yaml --mode compare --overwrite \
    --set grid.nx="$nx" --set grid.nz="$nz" --set time.sim_time="$sim_time" \
    --set execution.granularity="$granularity" --set execution.steps_per_graph="${k:-0}" \
    --set output.dir="$dir" > "$dir.log" 2>&1 || { cat "$dir.log" >&2; exit 1; }
  /usr/bin/python3 - "$dir/timing.json" "$sweep" "$out/skipped.txt" >> "$csv" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
with open(sys.argv[3], "a") as skipped:
    for s in t.get("skipped", []):
        print(f'{t["nx"]}x{t["nz"]} {t["granularity"]}: {s["mode"]}: {s["reason"]}', file=skipped)
for m in t["modes"]:
    nodes = "/".join(str(n) for n in m.get("nodes_per_graph", []))
    print(",".join(str(v) for v in [sys.argv[2], t["nx"], t["nz"], t["cells"], t["granularity"], t["steps_per_graph"],
          m["steps"], m["mode"], m["time_per_step_us"], m["kernels_per_step"], m["launches_per_step"],
          m.get("graphs", ""), nodes, m.get("capture_ms", ""), m.get("instantiate_ms", ""),
          "" if m["speedup_vs_eager_sync"] is None else m["speedup_vs_eager_sync"],
          "" if m["speedup_vs_eager"] is None else m["speedup_vs_eager"], t["identical"], '"' + t["processor"] + '"',
          m.get("grid_barriers_per_step", "")]))
PY
}

for size in "${sizes[@]}"; do
  for granularity in fine fused stage; do run_compare size $size $granularity ""; done
done
for grid in "${k_grids[@]}"; do
  ((k_sweep)) || break
  for granularity in fine fused stage; do
    for k in "${k_values[@]}"; do run_compare steps_per_graph $grid $granularity "$k"; done
  done
done
echo "timing_sweep: wrote $csv"
