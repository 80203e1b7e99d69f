# The two commands of the README: `make run` and `make test`. Each sets up what it needs.
# Prefer Debian's own Python (the one a Raspberry Pi runs, built with optimisations).
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || command -v python3)
VENV := .venv
ARGS ?=

.PHONY: run test setup bench tables clean

run: setup
	$(VENV)/bin/xian-table run --sim $(ARGS)

test:
	PYTHON=$(PYTHON) scripts/setup.sh test
	scripts/test.sh $(ARGS)

setup:
	PYTHON=$(PYTHON) scripts/setup.sh

bench: setup
	$(VENV)/bin/xian-table bench $(ARGS)

# the hand table engine/suit_tables.bin, after a change to engine/suit_tables.py (a test checks it)
tables: setup
	$(VENV)/bin/python -c "from engine import suit_tables; suit_tables.write()"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
