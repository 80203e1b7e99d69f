#!/usr/bin/env bash
# The whole check: lint, types (strict on engine/), then every test. Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"
ruff check .
echo "== mypy"
mypy engine table_app hardware firmware_bridge
echo "== pytest"
pytest -m "not soak" "$@"
