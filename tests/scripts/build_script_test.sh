#!/usr/bin/env bash
# scripts/build.sh --help (and -h) prints its usage (naming --quick and --no-install) and exits 0
# without configuring, building or installing anything: no build directory appears.
set -euo pipefail
source_dir=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for flag in --help -h; do
  SIMAPP_BUILD_DIR="$scratch/build" "$source_dir/scripts/build.sh" "$flag" > "$scratch/out" 2> "$scratch/err" || {
    echo "build.sh $flag exited $?: $(cat "$scratch/err")"
    exit 1
  }
  grep -q '^Usage: scripts/build.sh \[--quick\] \[--no-install\] \[cmake configure arguments...\]$' "$scratch/out" || {
    echo "build.sh $flag printed no usage line:"
    cat "$scratch/out"
    exit 1
  }
  for option in --quick --no-install; do
    grep -q -- "^  $option " "$scratch/out" || { echo "build.sh $flag does not document $option"; exit 1; }
  done
  [[ ! -e $scratch/build ]] || { echo "build.sh $flag made $scratch/build"; exit 1; }
  [[ ! -s $scratch/err ]] || { echo "build.sh $flag wrote to stderr: $(cat "$scratch/err")"; exit 1; }
done
echo "build.sh --help and -h print the usage and build nothing"
