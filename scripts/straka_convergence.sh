#!/usr/bin/env bash
# Convergence of the density current (case straka, Straka et al. 1993) with resolution: runs
# inputs/straka.yaml at each grid spacing (dx = dz), collects each run's diagnostics.json into
# one CSV, and tabulates and plots it with scripts/plot_convergence.py. Usage:
#   scripts/straka_convergence.sh [--simapp PATH] [--out DIR] [--spacings "400 200 100"] [simapp options...]
# Default spacings: 400 200 100 50 25 m (the finest take minutes on a CPU; use a GPU build).
# Options after the known ones go to every simapp run (e.g. --backend host, --mode persistent).
set -euo pipefail
cd "$(dirname "$0")/.."

simapp=build/app/simapp
out=out/straka_convergence
spacings="400 200 100 50 25"
while (($#)); do
  case "$1" in
    --simapp) simapp=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --spacings) spacings=$2; shift 2 ;;
    *) break ;;
  esac
done
[[ -x "$simapp" ]] || { echo "straka_convergence: error: $simapp is not an executable (build first)" >&2; exit 2; }

mkdir -p "$out"
csv="$out/convergence.csv"
echo "spacing_m,nx,nz,front_m,theta_prime_min_K,theta_prime_max_K,u_min_m_per_s,u_max_m_per_s,w_min_m_per_s,w_max_m_per_s,wall_s" > "$csv"
for spacing in $spacings; do
  nx=$(awk -v d="$spacing" 'BEGIN { printf "%d", 51200 / d }')
  nz=$(awk -v d="$spacing" 'BEGIN { printf "%d", 6400 / d }')
  dir="$out/dx$spacing"
  echo "straka_convergence: $spacing m ($nx x $nz cells)"
  start=$(date +%s.%N)
  "$simapp" inputs/straka.yaml --overwrite --set grid.nx="$nx" --set grid.nz="$nz" --set output.dir="$dir" \
    --set output.every=900 "$@" > "$dir.log" 2>&1 || { cat "$dir.log" >&2; exit 1; }
  wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  /usr/bin/python3 - "$dir/diagnostics.json" "$spacing" "$nx" "$nz" "$wall" >> "$csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keys = ["front_m", "theta_prime_min_K", "theta_prime_max_K", "u_min_m_per_s", "u_max_m_per_s", "w_min_m_per_s",
        "w_max_m_per_s"]
print(",".join(sys.argv[2:5] + ["" if d[k] is None else repr(d[k]) for k in keys] + [sys.argv[5]]))
PY
done
echo "straka_convergence: wrote $csv"
/usr/bin/python3 scripts/plot_convergence.py "$csv"
