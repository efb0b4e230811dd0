#!/usr/bin/env bash
# scripts/stable_cfl.py on a sweep of six short runs of the real simapp (thermal, 2-D, with and
# without dissipation, 150 s each): cfl 1.5 stays healthy, 2.5 and then 2 (the bisection's
# middle) fail their health check, so each row brackets the limit between 1.5 and 2, and
# runs.csv holds every run.
set -euo pipefail
source_dir=$1
simapp=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
/usr/bin/python3 "$source_dir/scripts/stable_cfl.py" --simapp "$simapp" --out "$scratch/out" --cases thermal \
  --models 2d --sim-time 150 --start 1.5 --step 1 --highest 2.5 --resolution 0.5 > "$scratch/table" 2> "$scratch/err" || {
  echo "stable_cfl.py exited $?: $(cat "$scratch/err")"
  exit 1
}
for dissipation in "as shipped" none; do
  grep -Eq "^\| 2d \| thermal \| $dissipation \| 1\.5 \(288\) \| 2 \([0-9]+ of 216\) \|$" "$scratch/table" || {
    echo "no row bracketing thermal ($dissipation) between 1.5 and 2:"
    cat "$scratch/table"
    exit 1
  }
  grep -q "^2d, $dissipation: every case healthy up to cfl 1\.5 (thermal)$" "$scratch/table" || {
    cat "$scratch/table"
    exit 1
  }
done
runs=$(($(wc -l < "$scratch/out/runs.csv") - 1))
[[ $runs == 6 ]] || { echo "runs.csv holds $runs runs, not 6:"; cat "$scratch/out/runs.csv"; exit 1; }
grep -Eq '^thermal,2d,none,2.5,173,4,[0-9]+$' "$scratch/out/runs.csv" || { cat "$scratch/out/runs.csv"; exit 1; }
echo "stable_cfl.py brackets the limit between 1.5 and 2 in six runs"
