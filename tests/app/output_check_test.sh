#!/bin/sh
# Runs simapp (SIMAPP, its arguments after the first two) into a fresh directory and checks what it
# wrote with CHECK run by INTERPRETER (pvpython for ParaView's readers, python3 for netCDF/xarray).
# With --series, simapp runs twice, in each output.layout (per_time into OUT/per_time, series into
# OUT/series), and CHECK is given both directories.
# Exit 77 (ctest: skipped) when the interpreter is not installed, or when CHECK says 77.
# usage: output_check_test.sh [--series] INTERPRETER CHECK SIMAPP ARGS...
series=
if [ "$1" = --series ]; then
  series=yes
  shift
fi
interpreter=$1 check=$2
shift 2
command -v "$interpreter" > /dev/null || { echo "$interpreter not found: skipped"; exit 77; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
if [ -n "$series" ]; then
  "$@" --set output.dir="$out/per_time" || { echo "simapp failed"; exit 1; }
  "$@" --set output.dir="$out/series" --set output.layout=series || { echo "simapp (series) failed"; exit 1; }
  "$interpreter" "$check" "$out/per_time" "$out/series"
  exit
fi
"$@" --set output.dir="$out" || { echo "simapp failed"; exit 1; }
"$interpreter" "$check" "$out"
