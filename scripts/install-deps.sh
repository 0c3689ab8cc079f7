#!/usr/bin/env bash
# Installs the Debian packages Quire needs, only those that are missing.
set -euo pipefail

packages=(libcmark-gfm-dev libcmark-gfm-extensions-dev libyaml-dev pkg-config python3 git)
[ "${QUIRE_BENCH_DEPS:-0}" = 1 ] && packages+=(ripgrep)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
