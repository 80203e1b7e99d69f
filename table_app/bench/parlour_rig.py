"""The parlour rig: many real tables mirrored to one parlour, with the failures a parlour
meets, and the check that the parlour's copy equals every table's journal.

    with Rig(tmp, tables=8) as rig:      # the parlour broker, database and service; 8 tables
        rig.play()                       # every table's bot starts pressing
        rig.cut("t03"); ...; rig.restore("t03")
        rig.restart_parlour_broker(); rig.restart_parlour_service()
        rig.settle()                     # bots stop; waits for the parlour to hold everything
        assert rig.compare() == []

Each table (``parlour_tables.Table``) is a ``xian-table serve`` process with its own journal
and its own mosquitto, joined to the parlour by ``xian-table parlour-join`` (the bridge config
in the table broker's ``conf.d``), its bridge reaching the parlour's mosquitto through a
:class:`~table_app.bench.parlour_procs.Link` that the rig can cut. The parlour side is set
up as an owner does it: ``xian-table parlour tables add T`` for each table (its credentials
and ACL), then ``xian-table parlour serve`` on SQLite or a PostgreSQL URL.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from parlour.broker import SERVICE_PASSWORD, SERVICE_USER
from table_app.bench.mqtt import percentile
from table_app.bench.parlour_local import LocalParlourBroker, LocalPostgres
from table_app.bench.parlour_procs import Link, ended
from table_app.bench.parlour_tables import ROOT, Table
from table_app.bench.parlour_watch import ParlourReader, Watch, at_time, journal_last, journal_rows
from table_app.mqtt.local_broker import free_port

CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass
class Outage:
    """A window in which some tables' records could not reach the parlour database."""

    what: str
    tables: tuple[str, ...]  # () for all
    start: float
    end: float | None = None


@dataclass
class ProcUse:
    """CPU seconds and peak memory of one process over its life (read from /proc)."""

    cpu_s: float = 0.0
    peak_rss_kb: int = 0
    wall_s: float = 0.0

    def add(self, pid: int, started: float) -> None:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return
        self.cpu_s += (int(stat[11]) + int(stat[12])) / CLK_TCK
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                self.peak_rss_kb = max(self.peak_rss_kb, int(line.split()[1]))
        self.wall_s += time.monotonic() - started


@dataclass
class Figures:
    """What a run measured (times in seconds)."""

    records: int
    hands: int
    latency_p50: float
    latency_p99: float
    latency_max: float
    latency_p99_all: float
    catch_up: dict[str, float] = field(default_factory=dict)
    service_cpu_share: float = 0.0
    service_peak_rss_mb: float = 0.0
    db_bytes: int = 0
    db_bytes_per_1000_hands: float = 0.0
    refused_presses: int = 0


class Rig:
    def __init__(self, workdir: Path, tables: int = 8, db: str = "sqlite", pace: tuple[float, float] = (0.2, 0.5),
                 poll_s: float = 0.05, floor: bool = False, fee: dict[str, object] | None = None) -> None:
        self.dir = Path(workdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.ids = [f"t{i + 1:02d}" for i in range(tables)]
        self.pace = pace
        self.poll_s = poll_s
        self.db_kind = db
        self.pg: LocalPostgres | None = None
        self.db = str(self.dir / "parlour" / "parlour.sqlite3")
        self.parlour_dir = self.dir / "parlour"
        self.parlour_dir.mkdir(exist_ok=True)
        self.parlour_broker: LocalParlourBroker | None = None
        self.service: subprocess.Popen[bytes] | None = None
        self._service_started = 0.0
        self.service_use = ProcUse()
        self.tables: dict[str, Table] = {}
        self.links: dict[str, Link] = {}
        self.outages: list[Outage] = []
        self.watch: Watch | None = None
        self.started_at = 0.0
        self.fee = fee  # the fee setting each table's bot puts in its new sessions (None: no fee)
        self.floor_port = free_port() if floor else None  # the owner's pages (parlour serve --http), if asked

    # -- the parlour side

    def cli(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "table_app.cli", *args], capture_output=True, text=True,
                              cwd=self.dir, env=self._env(env), timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"xian-table {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        return proc

    def _env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ, PYTHONUTF8="1", HOME=str(self.dir / "home"), PYTHONPATH=str(ROOT))
        env.pop("XDG_CONFIG_HOME", None)
        env.pop("XDG_DATA_HOME", None)
        env.update(extra or {})
        return env

    def _start_database(self) -> None:
        if self.db_kind == "postgresql":
            pg = LocalPostgres().start()  # (a folder of its own, outside pytest's: removed at the end)
            self.pg, self.db = pg, pg.url

    def _setup_parlour(self) -> None:
        """The parlour's mosquitto, and each table added as an owner adds it."""
        b = self.parlour_broker = LocalParlourBroker(self.parlour_dir).start()
        assert b.proc is not None
        for t in self.ids:
            self.cli("parlour", "tables", "add", t, "--db", self.db, "--broker-dir", str(b.dir),
                     "--broker-pid", str(b.proc.pid), "--host", "127.0.0.1",
                     "--write-password", str(self.parlour_dir / f"{t}.password"))

    def start_service(self) -> None:
        """``xian-table parlour serve`` on the parlour's database and broker."""
        assert self.parlour_broker is not None
        b = self.parlour_broker
        http = ["--http", f"127.0.0.1:{self.floor_port}"] if self.floor_port else []
        self.service = subprocess.Popen(
            [sys.executable, "-m", "table_app.cli", "parlour", "serve", "--db", self.db, "--broker",
             f"mqtt://{SERVICE_USER}@127.0.0.1:{b.port}", "--password-file", str(b.dir / SERVICE_PASSWORD), *http],
            stdout=open(self.parlour_dir / "service.out", "ab"),  # noqa: SIM115
            stderr=open(self.parlour_dir / "service.log", "ab"),  # noqa: SIM115
            cwd=self.dir, env=self._env())
        self._service_started = time.monotonic()

    def floor_url(self, timeout: float = 30.0) -> str:
        """The owner's link that ``parlour serve --http`` printed (its key in it)."""
        end = time.monotonic() + timeout
        out = self.parlour_dir / "service.out"
        while time.monotonic() < end:
            for line in out.read_text(encoding="utf-8", errors="replace").splitlines() if out.exists() else ():
                if "http://" in line and "/parlour?key=" in line:
                    return line[line.index("http://"):].split()[0]
            time.sleep(0.1)
        raise AssertionError(f"parlour serve printed no link within {timeout:.0f} s (see {out})")

    def stop_service(self, kill: bool = False) -> None:
        if self.service is None:
            return
        self.service_use.add(self.service.pid, self._service_started)
        if kill:
            self.service.kill()
        else:
            self.service.terminate()
        ended(self.service)
        self.service = None

    # -- the tables

    def _join(self, table: Table, link: Link) -> None:
        """The table joins the parlour as its owner does, ``xian-table parlour-join`` with the
        password ``tables add`` gave, into the table's own /etc (``--root``): the bridge's
        address is the table's link, which leads to the parlour's broker."""
        self.cli("parlour-join", f"127.0.0.1:{link.port}", "--table", table.id, "--user", f"table-{table.id}",
                 "--password-file", str(self.parlour_dir / f"{table.id}.password"), "--root", str(table.root))

    def start(self) -> Rig:
        self._start_database()
        self._setup_parlour()
        self.start_service()
        assert self.parlour_broker is not None
        for i, t in enumerate(self.ids):
            table = Table(self.dir, t, self.pace, seed=i, fee=self.fee)
            link = Link(self.parlour_broker.port)
            self.tables[t], self.links[t] = table, link
            self._join(table, link)
            table.start()
        self.watch = Watch(self.db, self.ids, self.poll_s).start()
        return self

    def play(self) -> None:
        self.started_at = time.time()
        for t in self.tables.values():
            t.play()

    # -- the controls

    def cut(self, table: str, how: str = "cut") -> None:
        """The table's uplink goes down: ``cut`` (silence: no byte passes, nobody is told) or
        ``reset`` (every connection reset, new ones refused)."""
        getattr(self.links[table], how)()
        self.outages.append(Outage(f"link {how}", (table,), time.time()))

    def restore(self, table: str) -> None:
        self.links[table].restore()
        self._end("link", (table,))

    def restart_table_broker(self, table: str, down_s: float = 2.0) -> None:
        self.outages.append(Outage("table broker", (table,), time.time()))
        self.tables[table].broker.restart(down_s)
        self._end("table broker", (table,))

    def restart_parlour_broker(self, down_s: float = 2.0) -> None:
        assert self.parlour_broker is not None
        self.outages.append(Outage("parlour broker", (), time.time()))
        self.parlour_broker.stop()
        time.sleep(down_s)
        self.parlour_broker.start()
        self._end("parlour broker", ())

    def crash_table(self, table: str, down_s: float = 1.0) -> None:
        """The table's serve process is killed (SIGKILL) and started again."""
        self.outages.append(Outage("table crash", (table,), time.time()))
        self.tables[table].crash(down_s)
        self._end("table crash", (table,))

    def restart_parlour_service(self, down_s: float = 2.0, kill: bool = False) -> None:
        """The parlour service stops (SIGTERM; ``kill``: SIGKILL, a crash) and starts again."""
        self.outages.append(Outage("parlour service", (), time.time()))
        self.stop_service(kill=kill)
        time.sleep(down_s)
        self.start_service()
        self._end("parlour service", ())

    def database_outage(self, down_s: float = 5.0) -> None:
        """The parlour database is away for ``down_s``: PostgreSQL stopped and started again;
        SQLite locked by another writer (a transaction held open) for that long."""
        self.outages.append(Outage("database", (), time.time()))
        if self.pg is not None:
            self.pg.stop()
            time.sleep(down_s)
            self.pg.start()
        else:
            with contextlib.closing(sqlite3.connect(self.db, timeout=30, isolation_level=None)) as conn:
                conn.execute("BEGIN IMMEDIATE")
                time.sleep(down_s)
                conn.execute("ROLLBACK")
        self._end("database", ())

    def _end(self, what: str, tables: tuple[str, ...]) -> None:
        for o in reversed(self.outages):
            if o.end is None and o.what.startswith(what) and o.tables == tables:
                o.end = time.time()
                return

    # -- the end

    def errors(self) -> list[str]:
        return [f"{t.id}: the bot stopped: {t.error!r}" for t in self.tables.values() if t.error is not None]

    def settle(self, timeout: float = 60.0) -> float:
        """The players stop and the tables' claim windows close; returns how long the parlour then
        took to hold every record of every journal (raises after ``timeout``)."""
        for t in self.tables.values():
            t.stop_playing()
        for t in self.tables.values():  # (a claim window's timer writes one more record by itself)
            t.wait_quiet()
        stopped = time.time()
        last = {t: journal_last(self.tables[t].journal) for t in self.ids}
        assert self.watch is not None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if all(self.watch.high(t) >= last[t] for t in self.ids):
                return time.time() - stopped
            time.sleep(0.1)
        behind = {t: (self.watch.high(t), last[t]) for t in self.ids if self.watch.high(t) < last[t]}
        raise AssertionError(f"after {timeout:.0f} s the parlour still lacks records (held, journal): {behind}")

    def caught_up(self, since: float, timeout: float = 120.0) -> float:
        """Waits until the parlour holds every record the tables had committed when called;
        returns the time from ``since`` (``time.time()``: when a piece came back)."""
        assert self.watch is not None
        last = {t: journal_last(self.tables[t].journal) for t in self.ids}
        end = time.monotonic() + timeout
        while not all(self.watch.high(t) >= last[t] for t in self.ids):
            if time.monotonic() > end:
                raise AssertionError(f"the parlour did not catch up within {timeout:.0f} s")
            time.sleep(0.02)
        return time.time() - since

    def compare(self) -> list[str]:
        """Every difference between a table's journal and the parlour's copy, record by record,
        every column and the hash: a record missing, one twice, one different, one extra."""
        reader = ParlourReader(self.db)
        problems: list[str] = []
        try:
            for t in self.ids:
                mine, theirs = journal_rows(self.tables[t].journal), reader.rows(t)
                if not mine:
                    problems.append(f"{t}: the journal is empty (the bot did not play)")
                keys = [(r[0], r[1]) for r in theirs]
                if len(set(keys)) != len(keys):
                    problems.append(f"{t}: {len(keys) - len(set(keys))} records held twice")
                if theirs != mine:
                    have = dict(zip(keys, theirs, strict=True))
                    missing = [r[1] for r in mine if (r[0], r[1]) not in have]
                    differ = [r[1] for r in mine if (r[0], r[1]) in have and have[(r[0], r[1])] != r]
                    extra = sorted(set(keys) - {(r[0], r[1]) for r in mine})
                    problems.append(f"{t}: {len(mine)} in the journal, {len(theirs)} in the parlour; missing "
                                    f"{_span(missing)}; different {_span(differ)}; extra {extra[:5]}")
        finally:
            reader.close()
        return problems

    def figures(self, exclude_s: float = 0.0) -> Figures:
        """Event → parlour database latency (records committed outside any outage, and
        ``exclude_s`` after one; and all of them), catch-up after each link outage, the parlour
        service's CPU and memory, the database's size."""
        assert self.watch is not None
        calm, every, hands, records = [], [], 0, 0
        for t in self.ids:
            rows = journal_rows(self.tables[t].journal)
            records += len(rows)
            hands += sum(1 for r in rows if r[3] == "event" and r[6] is not None and '"next_hand"' in r[6])
            seen = self.watch.first_seen[t]
            for r in rows:
                if r[1] not in seen:
                    continue
                at = at_time(r[2])
                lat = max(0.0, seen[r[1]] - at)
                every.append(lat)
                if not self._in_outage(t, at, exclude_s):
                    calm.append(lat)
        fig = Figures(records, hands, percentile(calm, 50), percentile(calm, 99), max(calm),
                      percentile(every, 99))
        fig.catch_up = self._catch_up()
        use = ProcUse(self.service_use.cpu_s, self.service_use.peak_rss_kb, self.service_use.wall_s)
        if self.service is not None:
            use.add(self.service.pid, self._service_started)  # (the running one so far)
        fig.service_cpu_share = use.cpu_s / use.wall_s if use.wall_s else 0.0
        fig.service_peak_rss_mb = use.peak_rss_kb / 1024
        reader = ParlourReader(self.db)
        try:
            fig.db_bytes = reader.size_bytes()
        finally:
            reader.close()
        fig.db_bytes_per_1000_hands = fig.db_bytes / hands * 1000 if hands else 0.0
        fig.refused_presses = sum(t.played.refused for t in self.tables.values())
        return fig

    def _in_outage(self, table: str, at: float, margin: float) -> bool:
        for o in self.outages:
            if (not o.tables or table in o.tables) and o.start <= at <= (o.end or time.time()) + margin:
                return True
        return False

    def _catch_up(self) -> dict[str, float]:
        """Per link outage: from the link's return until the parlour held every record the
        table had committed by then."""
        assert self.watch is not None
        out = {}
        for o in self.outages:
            if not o.what.startswith("link") or o.end is None:
                continue
            (t,) = o.tables
            table = self.tables[t]
            due = [s for s, when in table.played.answered.items() if when <= o.end]
            seen = self.watch.first_seen[t]
            if due and all(s in seen for s in due):
                out[f"{t} after {o.end - o.start:.0f} s"] = max(0.0, max(seen[s] for s in due) - o.end)
        return out

    def close(self) -> None:
        if self.watch is not None:
            self.watch.stop()
        for t in self.tables.values():
            t.stop()
        for link in self.links.values():
            link.close()
        self.stop_service()
        if self.parlour_broker is not None:
            self.parlour_broker.stop()
        if self.pg is not None:
            self.pg.cleanup()

    def __enter__(self) -> Rig:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc: object) -> None:
        self.close()


def _span(seqs: Iterable[int]) -> str:
    s = sorted(seqs)
    if not s:
        return "none"
    return f"{len(s)} ({s[0]}…{s[-1]})" if len(s) > 3 else str(s)
