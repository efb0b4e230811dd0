#!/bin/sh
# Runs simapp (SIMAPP, its arguments after the first two) into a fresh directory and checks what it
# wrote with CHECK run by INTERPRETER (pvpython for ParaView's readers, python3 for netCDF/xarray).
# Exit 77 (ctest: skipped) when the interpreter is not installed, or when CHECK says 77.
# usage: output_check_test.sh INTERPRETER CHECK SIMAPP ARGS...
interpreter=$1 check=$2
shift 2
command -v "$interpreter" > /dev/null || { echo "$interpreter not found: skipped"; exit 77; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
"$@" --set output.dir="$out" || { echo "simapp failed"; exit 1; }
case $check in
  *paraview*) "$interpreter" "$check" "$out/fields.xmf" ;;
  *) "$interpreter" "$check" "$out" ;;
esac
