"""The pure debouncer on synthetic edge bursts: exactly one press per burst."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.debounce import Debouncer

DEB = 0.02


def run(deb: Debouncer, edges: list[tuple[float, bool]], until: float, step: float = 0.001) -> list[tuple[float, str]]:
    """Replay edges, polling every ``step`` like the ticker thread; the presses with their times."""
    out = []
    edges = sorted(edges)
    t, i = 0.0, 0
    while t <= until:
        while i < len(edges) and edges[i][0] <= t:
            deb.edge(edges[i][1], edges[i][0])
            i += 1
        out += [(t, k) for k in deb.poll(t)]
        t = round(t + step, 6)
    return out


def burst(start: float, gaps: list[float], final: bool) -> list[tuple[float, bool]]:
    """Alternating edges ending at level ``final``, each gap shorter than the debounce time."""
    n = len(gaps) + 1
    level = final if n % 2 == 1 else not final
    t, out = start, []
    for k in range(n):
        out.append((t, level))
        level = not level
        if k < len(gaps):
            t += gaps[k]
    return out


gaps = st.lists(st.floats(0.0002, DEB * 0.9), max_size=12)


@settings(max_examples=300, deadline=None)
@given(gaps, gaps, st.floats(0.05, 0.5))
def test_a_bouncing_press_and_release_give_exactly_one_press(press_gaps, release_gaps, held):
    deb = Debouncer(DEB)
    down = burst(0.01, press_gaps, True)
    up = burst(down[-1][0] + held, release_gaps, False)
    got = run(deb, down + up, until=up[-1][0] + 0.1)
    assert [k for _, k in got] == ["press"]
    assert got[0][0] >= down[-1][0] + DEB - 1e-9  # settled only after the last bounce


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(gaps, gaps), min_size=1, max_size=5))
def test_n_bouncing_presses_are_n_presses(bursts):
    deb = Debouncer(DEB)
    edges, t = [], 0.01
    for press_gaps, release_gaps in bursts:
        down = burst(t, press_gaps, True)
        up = burst(down[-1][0] + 0.1, release_gaps, False)
        edges += down + up
        t = up[-1][0] + 0.1
    assert [k for _, k in run(deb, edges, until=t + 0.1)] == ["press"] * len(bursts)


def test_a_glitch_shorter_than_the_debounce_time_is_no_press():
    deb = Debouncer(DEB)
    assert run(deb, [(0.01, True), (0.015, False)], until=0.2) == []


def test_turn_reports_a_short_press_on_release_and_a_long_one_while_held():
    deb = Debouncer(DEB, long_s=1.0)
    short = run(deb, burst(0.01, [0.001, 0.002], True) + burst(0.4, [0.003], False), until=1.0)
    assert [k for _, k in short] == ["press"]
    deb = Debouncer(DEB, long_s=1.0)
    long = run(deb, burst(0.01, [0.001], True) + burst(2.0, [0.002, 0.001], False), until=2.5)
    assert [k for _, k in long] == ["long"]
    assert 1.0 < long[0][0] < 1.1  # while still held


def test_the_clock_is_injected_not_read():
    deb = Debouncer(DEB)
    deb.edge(True, 1000.0)
    assert deb.poll(1000.019) == [] and deb.poll(1000.02) == ["press"]
