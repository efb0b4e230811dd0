#!/usr/bin/env bash
# expect_exit.sh CODE PATTERN COMMAND...: runs COMMAND (with a time limit, so a hang fails),
# and passes when it exits with CODE and its stderr matches PATTERN (grep -E).
set -u
code=$1 pattern=$2
shift 2
stderr=$(mktemp)
timeout 120 "$@" 2> "$stderr" > /dev/null
status=$?
cat "$stderr" >&2
if [[ $status -ne $code ]]; then echo "expect_exit: exit code $status, expected $code" >&2; exit 1; fi
if ! grep -Eq "$pattern" "$stderr"; then echo "expect_exit: stderr does not match '$pattern'" >&2; exit 1; fi
echo "expect_exit: exit code $code and message as expected"
