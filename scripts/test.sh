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
# Four workers (pytest-xdist) on the two cores: most tests wait (fsyncs, brokers, browsers,
# windows) more than they compute (quiet, fresh tree: 454 s on three, 411 s on four). Chromium's
# and the rig's tests run in a group each, one at a time (tests/conftest.py); a Kivy test goes
# to any worker, each with its own window. XIAN_TEST_WORKERS=0 runs everything in this one
# process. The soak runs are left out (pyproject.toml's addopts; ARGS="-m soak" runs them).
pytest -n "${XIAN_TEST_WORKERS:-4}" --dist loadgroup --durations=25 "$@"
