#!/usr/bin/env bash
# Every tracked C++ and CUDA source is formatted as .clang-format says. Skipped (77) without
# clang-format 14 (Debian 12's; other versions lay some lines out differently) or outside a git
# checkout. usage: format_check.sh SOURCE_DIR
set -euo pipefail
cd "$1"
command -v clang-format > /dev/null || { echo "format check: no clang-format: skipped"; exit 77; }
version=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[[ $version == 14 ]] || { echo "format check: clang-format $version, not 14: skipped"; exit 77; }
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "format check: not a git checkout: skipped"; exit 77; }
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.cuh' '*.cu' '*.h')
clang-format --dry-run --Werror "${sources[@]}"
echo "format check: ${#sources[@]} files formatted as .clang-format says"
