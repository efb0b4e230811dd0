#!/usr/bin/env bash
# `simapp --version` names the commit its sources are at (read at build time, not when the
# build was configured). Usage: version_commit_test.sh SOURCE_DIR SIMAPP. Skipped (77) outside
# a git checkout. Fails when the binary is older than the sources' commit: rebuild first.
set -euo pipefail
source_dir=$1 simapp=$2
command -v git > /dev/null || { echo "version commit: no git: skipped"; exit 77; }
commit=$(git -C "$source_dir" rev-parse --short=12 HEAD 2> /dev/null) || { echo "version commit: not a git checkout: skipped"; exit 77; }
line=$("$simapp" --version)
[[ $line =~ \(git\ ([0-9a-f]+)(-dirty)?, ]] || { echo "version commit: no commit in '$line'" >&2; exit 1; }
if [[ ${BASH_REMATCH[1]} != "$commit" ]]; then
  echo "version commit: simapp says ${BASH_REMATCH[1]}, the sources are at $commit" >&2
  exit 1
fi
echo "ok: simapp names the sources' commit $commit"
