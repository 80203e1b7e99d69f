#!/usr/bin/env bash
# The whole check: lint, types (strict on engine/), then every test. Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"
ruff check .
echo "== mypy"
mypy engine table_app parlour hardware firmware_bridge
echo "== pytest"
# Two workers (pytest-xdist): the Kivy, Chromium and rig tests each run one at a time in their
# own group (tests/conftest.py); XIAN_TEST_WORKERS=0 runs everything in this one process.
pytest -m "not soak" -n "${XIAN_TEST_WORKERS:-2}" --dist loadgroup --durations=25 "$@"
