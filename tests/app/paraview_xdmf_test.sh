#!/bin/sh
# Runs simapp (SIMAPP, its arguments after the first two) into a fresh directory and opens the
# fields.xmf it wrote with ParaView's XDMF reader (paraview_xdmf_check.py under pvpython).
# Exit 77 (ctest: skipped) when pvpython is not installed. usage: paraview_xdmf_test.sh CHECK SIMAPP ARGS...
check=$1
shift
pvpython=$(command -v pvpython) || { echo "pvpython not found (Debian: python3-paraview): skipped"; exit 77; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
"$@" --set output.dir="$out" || { echo "simapp failed"; exit 1; }
"$pvpython" "$check" "$out/fields.xmf"
