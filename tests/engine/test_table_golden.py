"""Golden event scripts (tests/golden/events): whole hands with hand-reasoned expected states.

Each ``NAME.jsonl`` is an ``xian-table play`` file whose ``#expect {...}`` comment lines are
checkpoints; ``NAME.json`` holds the expected final public state (a subset: the keys given
must match exactly) and, for a script that must be refused, the refused event's index and
the words of the error. The expected values were worked out by hand from docs/rules.md (see the
comments in each script), not copied from the engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.errors import RuleError
from engine.public import public_state
from engine.table import TableState, apply, new_table

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "events"
SCRIPTS = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))


def assert_subset(expected: Any, actual: Any, where: str = "state") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key.startswith("_"):
                continue
            assert key in actual, f"{where}: missing key {key!r}"
            assert_subset(value, actual[key], f"{where}.{key}")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def run_script(name: str) -> tuple[TableState, int | None, str | None, int]:
    """Play a golden script through ``apply``, checking its checkpoints on the way."""
    state = new_table()
    index = 0
    checkpoints = 0
    for lineno, raw in enumerate((GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line.startswith("#expect "):
            assert_subset(json.loads(line[len("#expect ") :]), public_state(state), f"{name}.jsonl:{lineno}")
            checkpoints += 1
            continue
        if not line or line.startswith("#"):
            continue
        try:
            state, _ = apply(state, json.loads(line))
        except RuleError as e:
            return state, index, str(e), checkpoints
        index += 1
    return state, None, None, checkpoints


def test_there_are_golden_scripts() -> None:
    assert {
        "seed_example",
        "draw_0_kongs",
        "draw_1_kongs",
        "draw_2_kongs",
        "draw_3_kongs",
        "rotation_round",
        "claim_win_beats_pong",
        "claim_nearest_winner",
        "claim_pong_beats_chow",
        "claim_chow_only_xiajia",
    } <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_golden_script(name: str) -> None:
    expected = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    state, error_index, error, checkpoints = run_script(name)
    if "error" in expected:
        assert error_index == expected["error"]["index"], error
        assert error is not None and expected["error"]["contains"] in error
    else:
        assert error is None, f"{name}: event {error_index} refused: {error}"
    assert_subset(expected["public"], public_state(state), name)
    assert checkpoints == (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").count("\n#expect ")


@pytest.mark.parametrize("name", ["draw_3_kongs", "rotation_round", "claim_chow_only_xiajia", "seed_example"])
def test_golden_script_through_the_cli(cli: Any, name: str) -> None:
    """``xian-table play --json`` gives the same public state; a refused event exits 3."""
    expected = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    proc = cli("play", str(GOLDEN / f"{name}.jsonl"), "--json")
    out = json.loads(proc.stdout)
    if "error" in expected:
        assert proc.returncode == 3
        assert set(out) >= {"error", "index", "event", "state"}
        assert out["index"] == expected["error"]["index"]
        assert expected["error"]["contains"] in out["error"]
        assert out["event"] == {"type": "claim", "seat": 2, "call": "chow"}
        assert_subset(expected["public"], out["state"], name)
    else:
        assert proc.returncode == 0, proc.stderr
        assert_subset(expected["public"], out, name)
