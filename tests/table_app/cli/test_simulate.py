"""``xian-table simulate`` through the real CLI: summary, JSON, journal → play, refusals."""

from __future__ import annotations

import json
from pathlib import Path

from engine.public import public_state
from engine.simulate import SimConfig, simulate


def test_summary_for_people(cli) -> None:
    p = cli("simulate", "--hands", "12", "--seed", "4", "--bots", "greedy,greedy,random,greedy", check=True)
    out = p.stdout
    assert "12 hands, seed 4, bots greedy,greedy,random,greedy" in out
    for part in ("wins", "by kind:", "draws", "kongs  concealed", "wait bonus", "mean hand length", "final totals",
                 "hands/s", "all held"):
        assert part in out, part
    assert p.stderr == ""  # not a terminal: no progress bar


def test_json_summary_matches_the_library(cli) -> None:
    p = cli("simulate", "-n", "15", "--seed", "9", "--bots", "random", "--rules", "seven_pairs=true",
            "kong_reserve=[12,7,8,12]", "--bets", "--json", check=True)  # fmt: skip
    data = json.loads(p.stdout)
    lib = simulate(SimConfig(hands=15, seed=9, bots=("random",) * 4, bets=True,
                             rules={"seven_pairs": True, "kong_reserve": [12, 7, 8, 12]}))
    want = lib.to_json()
    for key in ("hands", "wins_by_seat", "wins_by_kind", "draws", "kongs_by_kind", "final_scores",
                "mean_discards_per_hand", "wait_bonus_share", "invariant_checks"):
        assert data[key] == want[key], key
    assert data["rules"] == {"seven_pairs": True, "kong_reserve": [12, 7, 8, 12]}
    assert sum(data["final_scores"]) == 0


def test_the_journal_plays_back_to_the_same_table(cli, tmp_path: Path) -> None:
    cli("simulate", "-n", "25", "--seed", "3", "--bots", "greedy,random,greedy,random", "--session-hands", "0",
        "--journal", "j.jsonl", check=True)  # fmt: skip
    journal = tmp_path / "j.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["type"] == "new_session" and json.loads(lines[0])["wall_seed"] == 3
    played = json.loads(cli("play", "j.jsonl", "--json", check=True).stdout)
    lib = simulate(SimConfig(hands=25, seed=3, bots=("greedy", "random", "greedy", "random")))
    assert lib.final_state is not None
    assert played == json.loads(json.dumps(public_state(lib.final_state), ensure_ascii=False))
    assert played["hand"] == 25 and played["phase"] == "hand_over"
    # the same command writes the same bytes
    cli("simulate", "-n", "25", "--seed", "3", "--bots", "greedy,random,greedy,random", "--session-hands", "0",
        "--journal", "k.jsonl", check=True)  # fmt: skip
    assert (tmp_path / "k.jsonl").read_bytes() == journal.read_bytes()


def test_journal_to_stdout_moves_the_summary_to_stderr(cli) -> None:
    p = cli("simulate", "-n", "2", "--journal", "-", check=True)
    events = [json.loads(line) for line in p.stdout.splitlines()]
    assert events[0]["type"] == "new_session" and any(e["type"] == "next_hand" for e in events)
    assert "2 hands, seed 0" in p.stderr


def test_bad_arguments_exit_2(cli) -> None:
    for args, msg in [
        (("--bots", "greedy,clever"), "--bots takes 1 or 4"),
        (("--rules", "sevenpairs=true"), "did you mean 'seven_pairs'"),
        (("--rules", "seven_pairs"), "NAME=VALUE"),
        (("--hands", "0"), "--hands must be at least 1"),
        (("--journal", "no/such/dir/j.jsonl"), "cannot write the journal"),
    ]:
        p = cli("simulate", *args)
        assert p.returncode == 2, args
        assert msg in p.stderr, (args, p.stderr)


def test_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "table_app.cli", "simulate", "-n", "6", "--bots", "random"],
            stdout=subprocess.PIPE, stderr=slave, cwd=tmp_path, env=dict(os.environ, PYTHONUTF8="1"),
            timeout=120, check=True,
        )  # fmt: skip
        os.close(slave)
        slave = -1
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the terminal has no writer left
                break
            if not data:
                break
            chunks.append(data)
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    bar = b"".join(chunks).decode("utf-8", "replace")
    assert "6/6 hands" in bar and "hands/s" in bar
    assert "6 hands, seed 0" in proc.stdout.decode()
