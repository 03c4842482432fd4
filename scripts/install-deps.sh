#!/usr/bin/env bash
# Installs the Debian 12 packages contend needs, and only those that are missing.
# Called by `make run` and `make test`; safe to run again (does nothing when all are present).
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libsimgrid-dev libyaml-cpp-dev libboost-graph-dev libboost-test-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libmetis-dev
  # OTF2 trace import (traces/formats/otf2_*)
  libotf2-trace-dev
  # Paje timelines checked by pj_dump (tests/traces/timeline.sh)
  pajeng
  # the HTML report (--html) loaded in a headless browser (tests/html/check_html_report.py)
  chromium python3-pil
  # the emulated cluster (validation/testbed) and the calibration benchmarks (calibrate/)
  libopenmpi-dev openmpi-bin libhwloc-dev libeigen3-dev iproute2 ethtool iputils-ping util-linux python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "contend: installing missing Debian packages: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "contend: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
