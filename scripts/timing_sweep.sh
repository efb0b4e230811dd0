#!/usr/bin/env bash
# Timing sweep: runs `simapp --mode compare` (every execution mode the backend has) over grid
# sizes and the four granularities (K chosen automatically), then over steps_per_graph K at
# fixed grids, and writes one CSV row per mode and run: the median time per step over simapp's
# repeated rounds with its spread (min, max, quartiles, the median's interval) and the speed-up
# ranges; --3d sweeps the 3-D model (grid.ny > 1) instead. Plot with scripts/plot_timing.py; tabulate with scripts/mode_table.py (both take
# --bench BENCH.json for the launch floors of the same processor). `--help` lists the options.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/timing_sweep.sh [--simapp PATH] [--out DIR] [--quick] [--3d] [--grid NX NZ]
                               [--grid3d NX NY NZ] [--sizes-only] [--repeats N] [--steps N]
                               [--bench PATH] [--help]
Runs `simapp --mode compare` over grid sizes (fine, fused, stage and pass granularity, K automatic),
then over steps_per_graph K at fixed grids, into DIR/sweep.csv: one row per mode and run with
the median time per step (time_per_step_us) and its spread over the repeats.
  --simapp PATH   the simapp binary (default build/app/simapp)
  --out DIR       where the CSV, skipped.txt and the runs go (default out/timing_sweep)
  --quick         three sizes (two in 3-D) and K in {1, 4, 16}: a smoke test
  --3d            the 3-D model: 48 x 24 x 10, 64 x 64 x 32, 128 x 128 x 64 and 256 x 256 x 128
                  (NX x NY x NZ, grid.ylen = grid.xlen), K swept at 48 x 24 x 10 and 64 x 64 x 32
  --grid NX NZ    that grid size only (the size sweep and the K sweep)
  --grid3d NX NY NZ
                  that 3-D grid size only (implies --3d)
  --sizes-only    no K sweep
  --repeats N     rounds of timed runs a case (--set execution.repeats=N; default simapp's)
  --steps N       time steps a run, at least four graphs of K steps (default 4e8 / cells, from
                  128 to 1000); fewer steps time a case less well, but sooner
  --bench PATH    run this simapp-bench once first and keep its JSON as DIR/bench.json, so that
                  plot_timing.py and mode_table.py can draw the launch floors of this processor
                  (--bench DIR/bench.json); without a GPU it is skipped with a note
  -h, --help      this text
Relative paths are taken from the repository root. Each run prints its place in the sweep, the
time so far and an estimate of the time left.
EOF
}

fail() {  # status message: one line on stderr
  echo "timing_sweep: error: $2" >&2
  exit "$1"
}

simapp=build/app/simapp
out=out/timing_sweep
quick=0
three_d=0
grid=()
k_sweep=1
repeats=""
steps=""
bench=""
while (($#)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --simapp | --out | --repeats | --steps | --bench)
      (($# >= 2)) || fail 2 "$1 needs a value (try --help)"
      case "$1" in
        --simapp) simapp=$2 ;;
        --out) out=$2 ;;
        --repeats) repeats=$2 ;;
        --steps) steps=$2 ;;
        --bench) bench=$2 ;;
      esac
      shift 2 ;;
    --grid)
      (($# >= 3)) || fail 2 "--grid needs two values, NX NZ (try --help)"
      grid=("$2" 1 "$3")
      shift 3 ;;
    --grid3d)
      (($# >= 4)) || fail 2 "--grid3d needs three values, NX NY NZ (try --help)"
      grid=("$2" "$3" "$4")
      three_d=1
      shift 4 ;;
    --quick) quick=1; shift ;;
    --3d) three_d=1; shift ;;
    --sizes-only) k_sweep=0; shift ;;
    *) fail 2 "unknown argument '$1' (try --help)" ;;
  esac
done
positive='^[1-9][0-9]{0,8}$'
if ((${#grid[@]})); then
  if ((three_d)); then
    [[ ${grid[0]} =~ $positive && ${grid[1]} =~ $positive && ${grid[2]} =~ $positive ]] && ((grid[1] > 1)) ||
      fail 2 "--grid3d needs three positive integers with NY > 1, got '${grid[0]}' '${grid[1]}' '${grid[2]}'"
  else
    [[ ${grid[0]} =~ $positive && ${grid[2]} =~ $positive ]] ||
      fail 2 "--grid needs two positive integers, got '${grid[0]}' '${grid[2]}'"
  fi
fi
if [[ -n $repeats ]]; then
  if ! [[ $repeats =~ $positive ]] || ((repeats > 1000)); then
    fail 2 "--repeats needs an integer from 1 to 1000, got '$repeats'"
  fi
fi
if [[ -n $steps ]] && { ! [[ $steps =~ $positive ]] || ((steps > 1000000)); }; then
  fail 2 "--steps needs an integer from 1 to 1000000, got '$steps'"
fi
[[ -n $simapp && -n $out ]] || fail 2 "--simapp and --out need a non-empty value"

cd "$(dirname "$0")/.."
[[ -x "$simapp" && ! -d "$simapp" ]] || fail 2 "$simapp is not an executable (build first)"
if [[ -n $bench ]]; then
  [[ -x "$bench" && ! -d "$bench" ]] || fail 2 "--bench: $bench is not an executable (build simapp-bench first)"
fi

# Sizes are "NX NY NZ", NY = 1 in 2-D.
if ((three_d && quick)); then
  sizes=("48 24 10" "64 64 32")
  k_values=(1 4 16)
  k_grids=("48 24 10")
elif ((three_d)); then
  sizes=("48 24 10" "64 64 32" "128 128 64" "256 256 128")
  k_values=(1 2 3 4 8 16 32 64)
  k_grids=("48 24 10" "64 64 32")
elif ((quick)); then
  sizes=("64 1 32" "128 1 64" "256 1 128")
  k_values=(1 4 16)
  k_grids=("64 1 32")
else
  sizes=("64 1 32" "128 1 64" "256 1 128" "512 1 256" "1024 1 512" "2048 1 1024" "4096 1 2048")
  k_values=(1 2 3 4 8 16 32 64)
  k_grids=("128 1 64" "1024 1 512")
fi
if ((${#grid[@]})); then
  sizes=("${grid[*]}")
  k_grids=("${grid[*]}")
fi

# Steps per run: enough to time small grids well, few on large ones, and at least 4 graphs;
# --steps fixes them.
steps_for() {  # cells k
  awk -v cells="$1" -v k="$2" -v fixed="$steps" 'BEGIN {
    if (fixed != "") s = fixed; else { s = int(4e8 / cells); if (s > 1000) s = 1000; if (s < 128) s = 128 }
    if (s < 4 * k) s = 4 * k; print s }'
}

# The plan: one line per run, "sweep nx ny nz granularity k steps" (k "-": automatic).
plan=()
for size in "${sizes[@]}"; do
  read -r nx ny nz <<<"$size"
  for granularity in fine fused stage pass; do
    plan+=("size $nx $ny $nz $granularity - $(steps_for $((nx * ny * nz)) 1)")
  done
done
if ((k_sweep)); then
  for size in "${k_grids[@]}"; do
    read -r nx ny nz <<<"$size"
    for granularity in fine fused stage pass; do
      for k in "${k_values[@]}"; do
        plan+=("steps_per_graph $nx $ny $nz $granularity $k $(steps_for $((nx * ny * nz)) "$k")")
      done
    done
  done
fi

mkdir -p "$out/runs"
csv="$out/sweep.csv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/done"  # "granularity cells steps seconds" of each run done, for the estimate of the time left

# The CSV's rows from a timing.json (`row TIMING.json SWEEP SKIPPED.txt`), or its header (`header`).
# time_per_step_us is the median over the repeats; the other time_* columns its spread.
read -r -d '' csv_py <<'PY' || true
import csv, json, sys

COLUMNS = ("sweep,nx,nz,cells,granularity,steps_per_graph,steps,mode,time_per_step_us,kernels_per_step,"
           "launches_per_step,graphs,nodes_per_graph,capture_ms,instantiate_ms,speedup_vs_eager_sync,"
           "speedup_vs_eager,identical,processor,grid_barriers_per_step,time_min_us,time_max_us,time_q1_us,"
           "time_q3_us,time_median_low_us,time_median_high_us,repeats,relative_spread,speedup_vs_eager_sync_low,"
           "speedup_vs_eager_sync_high,speedup_vs_eager_low,speedup_vs_eager_high,within_noise_of,"
           "break_even_steps,break_even_steps_low,break_even_steps_high,ny").split(",")
out = csv.writer(sys.stdout, lineterminator="\n")
if sys.argv[1] == "header":
    out.writerow(COLUMNS)
    sys.exit()
_, timing_path, sweep, skipped_path = sys.argv[1:]
with open(timing_path) as f:
    t = json.load(f)
with open(skipped_path, "a") as skipped:
    for s in t.get("skipped", []):
        grid = f'{t["nx"]}x{t["ny"]}x{t["nz"]}' if "ny" in t else f'{t["nx"]}x{t["nz"]}'
        print(f'{grid} {t["granularity"]}: {s["mode"]}: {s["reason"]}', file=skipped)


def cell(value):
    return "" if value is None else value


def bound(pair, i):
    return "" if pair is None or pair[i] is None else pair[i]


for m in t["modes"]:
    stats = m.get("time_per_step") or {}  # a simapp before repeats: one timed run, no spread
    row = {"sweep": sweep, "nx": t["nx"], "nz": t["nz"], "cells": t["cells"], "granularity": t["granularity"],
           "steps_per_graph": t["steps_per_graph"], "steps": m["steps"], "mode": m["mode"],
           "time_per_step_us": m["time_per_step_us"], "kernels_per_step": m["kernels_per_step"],
           "launches_per_step": m["launches_per_step"], "graphs": cell(m.get("graphs")),
           "nodes_per_graph": "/".join(str(n) for n in m.get("nodes_per_graph", [])),
           "capture_ms": cell(m.get("capture_ms")), "instantiate_ms": cell(m.get("instantiate_ms")),
           "speedup_vs_eager_sync": cell(m.get("speedup_vs_eager_sync")),
           "speedup_vs_eager": cell(m.get("speedup_vs_eager")), "identical": t["identical"],
           "processor": t["processor"], "grid_barriers_per_step": cell(m.get("grid_barriers_per_step")),
           "time_min_us": cell(stats.get("min_us")), "time_max_us": cell(stats.get("max_us")),
           "time_q1_us": cell(stats.get("q1_us")), "time_q3_us": cell(stats.get("q3_us")),
           "time_median_low_us": cell(stats.get("median_low_us")),
           "time_median_high_us": cell(stats.get("median_high_us")),
           "repeats": len(m.get("time_per_step_samples_us") or []) or t.get("repeats", 1),
           "relative_spread": cell(stats.get("relative_spread")),
           "speedup_vs_eager_sync_low": bound(m.get("speedup_vs_eager_sync_range"), 0),
           "speedup_vs_eager_sync_high": bound(m.get("speedup_vs_eager_sync_range"), 1),
           "speedup_vs_eager_low": bound(m.get("speedup_vs_eager_range"), 0),
           "speedup_vs_eager_high": bound(m.get("speedup_vs_eager_range"), 1),
           "within_noise_of": "/".join(m.get("within_noise_of", [])),
           "break_even_steps": cell(m.get("break_even_steps")),
           "break_even_steps_low": bound(m.get("break_even_steps_range"), 0),
           "break_even_steps_high": bound(m.get("break_even_steps_range"), 1), "ny": t.get("ny", 1)}
    out.writerow([row[c] for c in COLUMNS])
PY

# "elapsed 1m12s, ETA 4m30s" before run `index` (0-based) of the plan, from the runs done: per
# granularity, time per step = a + b · cells fitted to them (relative least squares, a, b >= 0);
# until a granularity has two sizes, a + b · cells is taken proportional to cells + 65536 (the
# cells whose kernels cost about what launching a step costs on a GPU), scaled to its runs or
# else to all runs.
read -r -d '' eta_py <<'PY' || true
import sys

done_path, plan_path, index, elapsed = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
OFFSET = 65536.0


def duration(s):
    s = int(round(s))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


done = {}
for line in open(done_path):
    g, cells, steps, seconds = line.split()
    done.setdefault(g, []).append((float(cells), float(steps), float(seconds)))
everything = [p for pts in done.values() for p in pts]


def fit(pts):
    """a, b >= 0 of seconds / steps = a + b * cells, relative least squares; None below two sizes."""
    if len({c for c, _, _ in pts}) < 2:
        return None
    rows = [(1.0 / y, c / y) for c, s, t in pts for y in [t / s] if y > 0]
    s11 = sum(u * u for u, _ in rows); s12 = sum(u * v for u, v in rows); s22 = sum(v * v for _, v in rows)
    r1 = sum(u for u, _ in rows); r2 = sum(v for _, v in rows)
    det = s11 * s22 - s12 * s12
    a, b = ((r1 * s22 - r2 * s12) / det, (r2 * s11 - r1 * s12) / det) if det > 0 else (-1.0, -1.0)
    if a >= 0 and b >= 0:
        return a, b
    only_a, only_b = (r1 / s11, 0.0), (0.0, r2 / s22 if s22 > 0 else 0.0)
    error = lambda ab: sum((ab[0] * u + ab[1] * v - 1) ** 2 for u, v in rows)
    return min(only_a, only_b, key=error)


def scale(pts):
    return sum(t / (s * (c + OFFSET)) for c, s, t in pts) / len(pts)


fits = {g: fit(pts) for g, pts in done.items()}
left = 0.0
for line in open(plan_path).read().splitlines()[index:]:
    _, nx, ny, nz, g, _, steps = line.split()
    cells, steps = float(nx) * float(ny) * float(nz), float(steps)
    if fits.get(g):
        a, b = fits[g]
        left += steps * (a + b * cells)
    elif done.get(g) or everything:
        left += scale(done.get(g) or everything) * steps * (cells + OFFSET)
    else:
        left = None
        break
print(f"elapsed {duration(elapsed)}, ETA " + ("unknown" if left is None else duration(left)))
PY

printf '%s\n' "${plan[@]}" >"$work/plan"
start=$(date +%s.%N)
since_start() { awk -v start="$start" -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now - start }'; }

if [[ -n $bench ]]; then
  rm -f "$out/bench.json"
  echo "timing_sweep: simapp-bench: $bench --json $out/bench.json (log: $out/bench.log)"
  status=0
  "$bench" --json "$out/bench.json" >"$out/bench.log" 2>&1 || status=$?
  if ((status == 0)); then
    echo "timing_sweep: simapp-bench: wrote $out/bench.json; launch floors: --bench $out/bench.json"
  elif ((status == 2)) && grep -q 'no CUDA device visible' "$out/bench.log"; then
    echo "timing_sweep: simapp-bench: no CUDA device visible; no launch floors for this sweep"
  else
    fail 1 "simapp-bench exited $status: $(tail -n 1 "$out/bench.log") (log: $out/bench.log)"
  fi
fi

/usr/bin/python3 -c "$csv_py" header >"$csv"
: >"$out/skipped.txt"
repeats_label=${repeats:-"simapp's default"}
echo "timing_sweep: ${#plan[@]} runs of $simapp --mode compare, repeats: $repeats_label; writing $csv"
repeat_args=()
[[ -z $repeats ]] || repeat_args=(--set execution.repeats="$repeats")

index=0
for entry in "${plan[@]}"; do
  read -r sweep nx ny nz granularity k steps <<<"$entry"
  cells=$((nx * ny * nz))
  [[ $k == - ]] && k_label=auto || k_label=$k
  # sim_time = steps · dt with dt = 1.5 · min(dx, dy, dz) / 450 on the default 20 km × 10 km
  # domain (20 km along y in 3-D).
  sim_time=$(awk -v nx="$nx" -v ny="$ny" -v nz="$nz" -v s="$steps" \
    'BEGIN { dx = 20000 / nx; dz = 10000 / nz; d = dx < dz ? dx : dz; if (ny > 1 && 20000 / ny < d) d = 20000 / ny;
             printf "%.17g", s * 1.5 * d / 450 }')
  if ((ny > 1)); then
    grid_name="${nx}x${ny}x${nz}" grid_label="$nx x $ny x $nz" ny_args=(--set grid.ny="$ny")
  else
    grid_name="${nx}x${nz}" grid_label="$nx x $nz" ny_args=()
  fi
  dir="$out/runs/${sweep}_${grid_name}_${granularity}_k${k_label}"
  progress=$(/usr/bin/python3 -c "$eta_py" "$work/done" "$work/plan" "$index" "$(since_start)")
  echo "timing_sweep: [$((index + 1))/${#plan[@]}] $grid_label $granularity K=$k_label ($steps steps) … $progress"
  run_start=$(date +%s.%N)
  "$simapp" "$(dirname "$0")/../inputs/case.yaml" --mode compare --overwrite \
    --set grid.nx="$nx" "${ny_args[@]}" --set grid.nz="$nz" --set time.sim_time="$sim_time" \
    --set execution.granularity="$granularity" --set execution.steps_per_graph="${k/-/0}" \
    "${repeat_args[@]}" --set output.dir="$dir" >"$dir.log" 2>&1 ||
    { cat "$dir.log" >&2; fail 1 "simapp failed on $grid_label $granularity K=$k_label (log: $dir.log)"; }
  /usr/bin/python3 -c "$csv_py" row "$dir/timing.json" "$sweep" "$out/skipped.txt" >>"$csv"
  seconds=$(awk -v start="$run_start" -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now - start }')
  echo "$granularity $cells $steps $seconds" >>"$work/done"
  index=$((index + 1))
done
took=$(/usr/bin/python3 -c "$eta_py" "$work/done" "$work/plan" "$index" "$(since_start)")
echo "timing_sweep: wrote $csv ($index runs, ${took%%, ETA*})"
