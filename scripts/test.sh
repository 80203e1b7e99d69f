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
# Three workers (pytest-xdist) on the two cores: most tests wait (fsyncs, brokers, browsers,
# windows) more than they compute. The Kivy tests run in two groups, Chromium's and the rig's in
# one each, a group's tests one at a time (tests/conftest.py); XIAN_TEST_WORKERS=0 runs
# everything in this one process. The soak runs are left out (pyproject.toml's addopts; ARGS="-m soak" runs them).
pytest -n "${XIAN_TEST_WORKERS:-3}" --dist loadgroup --durations=25 "$@"
