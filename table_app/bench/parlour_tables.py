"""One table of the parlour rig: its own mosquitto (the shipped config, generated users,
persistence on, a ``conf.d`` for the parlour bridge), a real ``xian-table serve`` process
with its own journal, and a bot that plays it at table pace.

The bot presses the table's buttons as players do — the dice button, each player's TURN
(the quick 下家's too), the table's own steps (a new session, the seating, the next hand) —
through ``serve --stdin``, the table's local input: a table plays on whatever the network
does, as its wired buttons do, so the bot never waits on a broker. Each press comes after
the answer to the one before and a pause drawn from ``pace`` (seconds). Now and then it
undoes the last event and redoes it, so the journal holds all three kinds of record.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.public import PublicState
from table_app.bench.mqtt import next_press
from table_app.bench.parlour_procs import WAIT_S, Mosquitto, ended
from table_app.mqtt.broker_setup import DEFAULT_USERS, SHIPPED_CONF, setup
from table_app.mqtt.local_broker import free_port, render_conf

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
UNDO_EVERY = 40  # presses, about: an undo, then a redo
ROOT = Path(__file__).resolve().parents[2]


def table_broker_conf(shipped: str, data_dir: Path, port: int, log_file: Path, persist: Path, conf_d: Path) -> str:
    """The shipped config as ``LocalBroker`` renders it, with persistence on (the bridge's
    queue survives a restart of the table's broker) and a ``conf.d`` for the bridge."""
    text = render_conf(shipped, data_dir, port, log_file).replace("persistence false\n", "")
    return text + f"persistence true\npersistence_location {persist}/\ninclude_dir {conf_d}\n"


def choose(public: PublicState, presses: int, undone: bool, fee: dict[str, object] | None = None) -> dict[str, object]:
    """The bot's next command: the table's own step where no seat acts, else a player's press;
    an undo about every ``UNDO_EVERY`` presses, and the redo right after it. ``fee``: the fee
    setting its new sessions carry (none: no fee)."""
    phase = public["phase"]
    if undone:
        return {"type": "redo"}
    if phase in ("idle", "ended"):
        return {"type": "new_session", "players": PLAYERS, "base": 1, **({"fee": fee} if fee else {})}
    if phase == "seating":
        return {"type": "seating", "method": "C", "east": 0}
    if phase == "win_pending":
        return {"type": "confirm_win", "wait": "plain"}
    if presses % UNDO_EVERY == UNDO_EVERY - 1 and phase == "turn":
        return {"type": "undo"}
    return dict(next_press(public))


@dataclass
class Played:
    """What the bot saw: per journal seq, when the table answered the command that made it
    (``time.time()``), and how many commands were refused (a press a claim timer overtook)."""

    answered: dict[int, float] = field(default_factory=dict)
    commands: int = 0
    refused: int = 0
    hands: int = 0


class Table:
    """``Table(workdir, "t01").start()``; :meth:`play` starts its bot; :meth:`stop` ends all."""

    def __init__(self, workdir: Path, table_id: str, pace: tuple[float, float] = (0.2, 0.5), seed: int = 0,
                 fee: dict[str, object] | None = None) -> None:
        self.id = table_id
        self.fee = fee
        self.dir = Path(workdir) / table_id
        self.dir.mkdir(parents=True, exist_ok=True)
        self.journal = self.dir / "journal.sqlite3"
        self.root = self.dir / "root"  # the table's own /etc (``parlour-join --root`` writes here)
        self.conf_d = self.root / "etc/mosquitto/conf.d"
        self.conf_d.mkdir(parents=True, exist_ok=True)
        persist = self.dir / "persist"
        persist.mkdir(exist_ok=True)
        data = self.root / "etc/mosquitto/xian-table"
        self.passwords = setup(data, DEFAULT_USERS, force=True)
        port = free_port()
        conf = self.dir / "mosquitto.conf"
        conf.write_text(table_broker_conf(SHIPPED_CONF.read_text(encoding="utf-8"), data, port,
                                          self.dir / "mosquitto.log", persist, self.conf_d), encoding="utf-8")
        self.broker = Mosquitto(self.dir, conf, port, "mosquitto")
        self.pace = pace
        self.rng = random.Random(seed)
        self.played = Played()
        self.proc: subprocess.Popen[str] | None = None
        self._bot: threading.Thread | None = None
        self._stop = threading.Event()
        self._paused = threading.Event()
        self._lock = threading.Lock()
        self.error: BaseException | None = None

    def url(self, role: str = "service") -> str:
        name = dict(DEFAULT_USERS)[role]
        return f"mqtt://{name}:{self.passwords[name]}@127.0.0.1:{self.broker.port}"

    def start(self) -> Table:
        self.broker.start()
        self._spawn()
        return self

    def _spawn(self) -> None:
        env = dict(os.environ, PYTHONUTF8="1", HOME=str(self.dir / "home"), PYTHONPATH=str(ROOT))
        env.pop("XDG_CONFIG_HOME", None)
        env.pop("XDG_DATA_HOME", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "table_app.cli", "serve", "--stdin", "--db", str(self.journal), "--mqtt",
             self.url(), "--table", self.id], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=open(self.dir / "serve.stderr", "a"), text=True, cwd=self.dir, env=env,  # noqa: SIM115
        )

    def crash(self, down_s: float = 1.0) -> None:
        """The table's process dies (SIGKILL: a power cut to the service, its journal as it was)
        and starts again after ``down_s``; the players wait, then go on."""
        with self._lock:
            proc = self.proc
            assert proc is not None
            proc.kill()
            proc.wait(WAIT_S)
            for f in (proc.stdin, proc.stdout):
                if f is not None:
                    with contextlib.suppress(OSError):
                        f.close()
            time.sleep(down_s)
            self._spawn()

    def send(self, command: dict[str, object]) -> dict[str, object]:
        """One command to the table and its answer (after the durable commit)."""
        with self._lock:
            proc = self.proc
            assert proc is not None and proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(command) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"table {self.id}: serve exited (see {self.dir}/serve.stderr)")
        answer: dict[str, object] = json.loads(line)
        return answer

    def play(self) -> None:
        self._bot = threading.Thread(target=self._play, daemon=True, name=f"bot-{self.id}")
        self._bot.start()

    def pause(self, paused: bool = True) -> None:
        """The players stop pressing (or go on)."""
        if paused:
            self._paused.set()
        else:
            self._paused.clear()

    def _play(self) -> None:
        try:
            state = self.send({"type": "state"})
            public: PublicState = state["state"]  # type: ignore[assignment]
            first = state.get("seq") or 0
            assert isinstance(first, int)
            seq, undone = first, False
            while not self._stop.is_set():
                if self._paused.is_set():
                    time.sleep(0.05)
                    continue
                cmd = choose(public, self.played.commands, undone, self.fee)
                answer = self.send(cmd)
                now = time.time()
                self.played.commands += 1
                if answer.get("ok"):
                    new = answer["seq"]
                    assert isinstance(new, int)
                    for s in range(seq + 1, new + 1):
                        self.played.answered[s] = now
                    seq, public = new, answer["state"]  # type: ignore[assignment]
                    undone = cmd["type"] == "undo"
                    self.played.hands += cmd["type"] == "next_hand"
                else:
                    self.played.refused += 1
                    undone = False
                    state = self.send({"type": "state"})
                    public = state["state"]  # type: ignore[assignment]
                self._stop.wait(self.rng.uniform(*self.pace))
        except BaseException as e:  # (reported by the rig: a bot that stops is a failure)
            self.error = e

    def finish_session(self, limit: int = 2000) -> dict[str, object]:
        """(The bot stopped.) Play on without pauses until a hand is settled, then end the
        session; the table's answer (its public state: the settle-up, the house's bill)."""
        public: PublicState = self.send({"type": "state"})["state"]  # type: ignore[assignment]
        for n in range(limit):
            if public["phase"] == "hand_over":
                break
            answer = self.send(choose(public, n + 1, False, self.fee))
            if not answer.get("ok"):
                answer = self.send({"type": "state"})
            public = answer["state"]  # type: ignore[assignment]
        else:
            raise RuntimeError(f"table {self.id}: no hand settled in {limit} presses")
        answer = self.send({"type": "end_session"})
        if not answer.get("ok"):
            raise RuntimeError(f"table {self.id}: end_session refused: {answer}")
        return answer

    def stop_playing(self) -> None:
        self._stop.set()
        if self._bot is not None:
            self._bot.join(WAIT_S)

    def wait_quiet(self, timeout: float = WAIT_S) -> None:
        """(The bot stopped.) Wait until the table will write nothing more of its own: no claim
        window open, whose timer would close it with a ``resolve`` seconds after the last press."""
        end = time.monotonic() + timeout
        while self.send({"type": "state"})["state"]["claims"] is not None:  # type: ignore[index]
            if time.monotonic() > end:
                raise AssertionError(f"table {self.id}: its claim window stayed open {timeout:.0f} s")
            time.sleep(0.1)

    def stop(self) -> None:
        self.stop_playing()
        if self.proc is not None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            ended(self.proc)
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self.proc = None
        self.broker.stop()
