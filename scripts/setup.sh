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
    # gcc and libc6-dev build the fsync shim of the power-loss and slow-commit tests and the slowdisk
    # benchmark (table_app/bench/fsync_shim.c);
    # openssl makes the broker's TLS certificates (also needed by install when TLS is on).
    DEBS+=(chromium systemd gcc libc6-dev openssl)
    # node runs MicroPython's WebAssembly port for the seat display firmware's tests
    DEBS+=(nodejs)
    # zbarimg reads the join QR codes the touchscreen and the pages draw, as a phone's camera would
    DEBS+=(zbar-tools)
    # xdotool taps the full-screen app with real X events (the fullscreen test)
    DEBS+=(xdotool)
    # the parlour's PostgreSQL tests start a server of their own (initdb, pg_ctl) in a temporary folder;
    # libpq5 (a dependency of postgresql) is what psycopg loads
    DEBS+=(postgresql)
fi
scripts/debian-packages.sh "${DEBS[@]}"
if [[ ! -x .venv/bin/python ]]; then
    echo "xian-table: creating .venv with $PYTHON"
    "$PYTHON" -m venv .venv
fi
MPY_STUBS=micropython-rp2-rpi_pico_w-stubs==1.29.0.post1
MPY_WASM=@micropython/micropython-webassembly-pyscript
MPY_WASM_VERSION=1.27.0
stamp=.venv/.xian-table-installed
if [[ ! -f $stamp || pyproject.toml -nt $stamp ]]; then
    echo "xian-table: installing the package and its dev tools into .venv (first run takes a minute)"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[dev]'
    touch "$stamp"
fi
if [[ $purpose == test ]]; then
    # The seat display firmware (issue 21) is type-checked against MicroPython's stubs for the
    # Pico W, kept apart from .venv's site-packages (they replace the standard library's stubs).
    if [[ ! -f .venv/mpy-stubs/.$MPY_STUBS ]]; then
        echo "xian-table: installing $MPY_STUBS into .venv/mpy-stubs"
        rm -rf .venv/mpy-stubs
        .venv/bin/python -m pip install -q --target .venv/mpy-stubs "$MPY_STUBS"
        touch ".venv/mpy-stubs/.$MPY_STUBS"
    fi
    # ... and run under MicroPython itself: its WebAssembly port from npm, with node.
    if [[ ! -f .venv/mpy-wasm/node_modules/$MPY_WASM/package.json ]]; then
        command -v npm >/dev/null || scripts/debian-packages.sh npm
        echo "xian-table: installing MicroPython's WebAssembly port into .venv/mpy-wasm"
        npm install --silent --no-audit --no-fund --prefix .venv/mpy-wasm "$MPY_WASM@$MPY_WASM_VERSION"
    fi
fi
