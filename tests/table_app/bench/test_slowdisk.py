"""``xian-table bench --only slowdisk``, small: the shim really slows the child's journal (every
press waits at least 100 ms an event), and the plain figures come beside the slow ones."""

from __future__ import annotations

from table_app.bench import slowdisk


def test_the_slowdisk_benchmark_runs_with_a_really_slow_fsync() -> None:
    said: list[str] = []
    results = {r.name: r for r in slowdisk.run(1, said.append, presses=12)}
    assert said and "12 presses" in said[0]
    assert set(results) == {"press → 4 views, this disk, p50", "press → 4 views, this disk, p99",
                            "press → 4 views, fsync 100 ms, p50", "press → 4 views, fsync 100 ms, p99",
                            "fsync 100 ms: above the fsyncs, p50", "fsync 100 ms: above the fsyncs, p99"}
    slow = results["press → 4 views, fsync 100 ms, p50"]
    assert slow.unit == "ms" and slow.value >= 100  # at least one 100 ms fsync a press
    assert "events a press, in one durable commit" in slow.note
    events = float(slow.note.split()[0])
    assert 1 <= events <= 2  # a discard, a pass, or the quick 下家's resolve and discard
    above = results["fsync 100 ms: above the fsyncs, p50"].value
    assert 0 <= above < slow.value
