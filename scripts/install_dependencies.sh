#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages simapp builds with; apt-gets only what is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ git pkg-config
  libyaml-cpp-dev libcli11-dev libfmt-dev libgtest-dev nlohmann-json3-dev
  libopenmpi-dev openmpi-bin
  libhdf5-openmpi-dev python3-numpy python3-h5py python3-matplotlib
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install_dependencies: all ${#packages[@]} packages present"
  exit 0
fi

echo "install_dependencies: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install_dependencies: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
