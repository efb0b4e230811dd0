#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages simapp builds and tests with; apt-gets only what is
# missing. A Python module counts as present when python3 imports it, whoever provided it
# (pip, conda, an environment module); the others are looked up with dpkg.
set -euo pipefail

packages=(
  cmake ninja-build g++ git pkg-config
  libyaml-cpp-dev libcli11-dev libfmt-dev libspdlog-dev libgtest-dev nlohmann-json3-dev
  libopenmpi-dev openmpi-bin
  libhdf5-openmpi-dev
)
declare -A python_modules=([python3-numpy]=numpy [python3-h5py]=h5py [python3-matplotlib]=matplotlib)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "install ok installed" || missing+=("$package")
done
for package in "${!python_modules[@]}"; do
  python3 -c "import ${python_modules[$package]}" 2> /dev/null || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install_dependencies: all present"
  exit 0
fi

echo "install_dependencies: installing ${missing[*]}"
command -v apt-get > /dev/null || {
  echo "install_dependencies: no apt-get on this machine: install ${missing[*]} (or their equivalents) another way" >&2
  exit 1
}
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo > /dev/null || {
    echo "install_dependencies: need root or sudo to install ${missing[*]}; or install them yourself (environment" \
      "modules, a prefix named in CMAKE_PREFIX_PATH) and run scripts/build.sh --no-install" >&2
    exit 1
  }
  sudo="sudo"
fi
$sudo apt-get update -qq || {
  echo "install_dependencies: cannot reach the package registry to install ${missing[*]}" >&2
  exit 1
}
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
