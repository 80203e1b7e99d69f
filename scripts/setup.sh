#!/usr/bin/env bash
# Set up everything the project needs, skipping what is already there:
# Debian packages, a virtualenv in .venv, and the package with its dev extra.
# `scripts/setup.sh test` also installs what only the tests need (a browser, systemd's tools).
set -euo pipefail
purpose=${1:-run}
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
# Debian packages: python3-venv for the virtualenv. (Later parts add their own here.)
DEBS=(python3-venv)
# The touchscreen app (Kivy): a virtual X display for headless runs and tests, the CJK font,
# GL and multitouch libraries the Kivy wheel loads, xclip for its clipboard.
DEBS+=(xvfb xauth fonts-noto-cjk libgl1 libmtdev1 xclip)
# MQTT (issue 7): the broker (and mosquitto_passwd, which install uses) and its command-line clients.
DEBS+=(mosquitto mosquitto-clients)
if [[ $purpose == test ]]; then
    # chromium for the phone-page test; systemd-analyze verify/security, systemd-sysusers and
    # systemctl --root for the unit and install tests (Debian's systemd package; a container may lack it);
    # gcc and libc6-dev build the fsync shim of the power-loss test (tests/reliability/fsync_shim.c);
    # openssl makes the broker's TLS certificates (also needed by install when TLS is on).
    DEBS+=(chromium systemd gcc libc6-dev openssl)
fi
scripts/debian-packages.sh "${DEBS[@]}"
if [[ ! -x .venv/bin/python ]]; then
    echo "xian-table: creating .venv with $PYTHON"
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.xian-table-installed
if [[ ! -f $stamp || pyproject.toml -nt $stamp ]]; then
    echo "xian-table: installing the package and its dev tools into .venv (first run takes a minute)"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[dev]'
    touch "$stamp"
fi
