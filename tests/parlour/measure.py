"""The parlour service measured (not a test): ``.venv/bin/python -m tests.parlour.measure``.

A real journal of 6,404 records (400 scripted hands), ``xian-table parlour serve`` as a real
process on a real parlour mosquitto, on SQLite and on a throw-away PostgreSQL: 6,000 records
published at once (how fast they are stored, the service's CPU), then 300 at 20 a second
(publish → stored, the service's CPU and memory).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from parlour.db import Database
from table_app.bench.parlour_local import LocalParlourBroker, LocalPostgres
from tests.parlour.helpers import make_journal, records
from tests.parlour.test_serve import FakeTable, Serve, add_table


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


def measure(spec_of: Callable[[Path], str], label: str) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="xian-parlour-measure-"))
    recs = records(make_journal(tmp / "j.sqlite3", hands=400))
    jid = str(recs[0]["journal"])
    with LocalParlourBroker(tmp) as b:
        spec = spec_of(tmp)
        table = FakeTable(b, "den", add_table(b, spec, "den", tmp), recs)
        serve = Serve(spec, b, tmp / "serve.log")
        serve.start()
        assert serve.proc is not None
        pid = serve.proc.pid
        with Database.open(spec) as db:
            c0, t0 = cpu_s(pid), time.monotonic()
            for r in recs[:6000]:
                table.c.publish("xian/den/journal", json.dumps(r), qos=1)
            while db.tip("den", jid)[0] < 6000:
                time.sleep(0.01)
            took = time.monotonic() - t0
            print(f"{label}: 6,000 records published at once, stored in {took:.2f} s ({6000 / took:,.0f}/s); "
                  f"the service's CPU {cpu_s(pid) - c0:.2f} s")
            lat = []
            c0, t0 = cpu_s(pid), time.monotonic()
            for r in recs[6000:6300]:
                sent = time.monotonic()
                table.c.publish("xian/den/journal", json.dumps(r), qos=1)
                while db.tip("den", jid)[0] < int(r["seq"]):  # type: ignore[call-overload]
                    time.sleep(0.001)
                lat.append((time.monotonic() - sent) * 1000)
                time.sleep(0.05)
            took = time.monotonic() - t0
            lat.sort()
            print(f"{label}: 300 records at 20/s: publish → stored median {statistics.median(lat):.1f} ms, "
                  f"p99 {lat[int(len(lat) * 0.99) - 1]:.1f} ms, max {lat[-1]:.1f} ms; the service's CPU "
                  f"{100 * (cpu_s(pid) - c0) / took:.1f} % of a core, RSS {rss_mb(pid):.0f} MB")
        serve.stop()
        table.close()
    shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    measure(lambda tmp: str(tmp / "parlour.sqlite3"), "SQLite")
    pg = LocalPostgres().start()
    try:
        measure(lambda tmp: pg.url, "PostgreSQL")
    finally:
        pg.cleanup()


if __name__ == "__main__":
    main()
