#!/usr/bin/env bash
# Install everything provisioning needs on a Debian machine, as root: the Debian packages listed in
# .ci/packages.txt (sshd for the local test hosts, sudo, python3-venv, ...) and the Python package with its test
# extras into ./.venv. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (it installs Debian packages, and the local test hosts need root)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
mapfile -t packages < <(grep -v '^\s*#' .ci/packages.txt | grep -v '^\s*$')
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian starts sshd on every address when openssh-server is installed; the local test hosts need port 22 on
# their own loopback addresses, so the machine's own sshd must not hold 0.0.0.0:22.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet ssh 2>/dev/null; then
    echo "install.sh: note: the machine's sshd is running; local test hosts need 127.0.0.N:22 free" >&2
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
# An editable install leaves the bytecode to the first import, which PYTHONDONTWRITEBYTECODE (set on some
# machines) turns into compiling every source at every start: compile it once, as pip does for a wheel.
.venv/bin/python -m compileall -q runner modules filter_plugins >/dev/null
echo "installed: $(.venv/bin/provisioning-playbook --help >/dev/null && echo provisioning) in $(pwd)/.venv"
