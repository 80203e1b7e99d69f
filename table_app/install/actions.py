"""The steps of an install: each knows whether it is already done (:meth:`Action.state`), so
a plan run twice changes nothing the second time; :func:`execute` prints and does them."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from table_app.install.system import Target, ids_in, write_atomic


@dataclass
class Action:
    """One step. :meth:`state` is None when it is already done, else the verb of what it does."""

    what: str  # a path or a command, as shown
    applied: bool = field(default=False, init=False)

    def state(self) -> str | None:
        raise NotImplementedError

    def apply(self) -> None:
        raise NotImplementedError


@dataclass
class WriteFile(Action):
    target: Path = Path("/")
    content: Callable[[], bytes] = field(default=lambda: b"")
    mode: int = 0o644
    keep_existing: bool = False  # a file the owner may edit: written once, never overwritten

    def state(self) -> str | None:
        p = self.target
        if not p.exists():
            return "create"
        if self.keep_existing:
            return None
        if p.read_bytes() != self.content() or (p.stat().st_mode & 0o7777) != self.mode:
            return "update"
        return None

    def apply(self) -> None:
        write_atomic(self.target, self.content(), self.mode)


@dataclass
class MakeDir(Action):
    target: Path = Path("/")
    mode: int = 0o750
    owner: str | None = None
    root: Path = Path("/")

    def state(self) -> str | None:
        if not self.target.is_dir():
            return "mkdir"
        st = self.target.stat()
        ids = ids_in(self.root, self.owner)
        if (st.st_mode & 0o7777) != self.mode or (ids and os.geteuid() == 0 and (st.st_uid, st.st_gid) != ids):
            return "fix"
        return None

    def apply(self) -> None:
        self.target.mkdir(parents=True, exist_ok=True)
        os.chmod(self.target, self.mode)
        ids = ids_in(self.root, self.owner)
        if ids and os.geteuid() == 0:
            os.chown(self.target, *ids)


@dataclass
class Remove(Action):
    target: Path = Path("/")

    def state(self) -> str | None:
        return "remove" if self.target.exists() or self.target.is_symlink() else None

    def apply(self) -> None:
        self.target.unlink()
        with contextlib.suppress(OSError):
            self.target.parent.rmdir()  # only if that left it empty


@dataclass
class Run(Action):
    """A command (or, with ``body``, Python doing the work); ``needed()`` says if it has work."""

    target: Target | None = None
    argv: Sequence[str] = ()
    needed: Callable[[], bool] = field(default=lambda: True)
    body: Callable[[], None] | None = None

    def state(self) -> str | None:
        return "run" if self.needed() else None

    def apply(self) -> None:
        if self.body is not None:
            self.body()
        elif self.target is not None:
            self.target.run(self.argv)


@dataclass
class Note(Action):
    """Something deliberately left as it is (``keep``) or left out (``skip``), said out loud."""

    verb: str = "keep"

    def state(self) -> str | None:
        return self.verb

    def apply(self) -> None:
        pass


def execute(actions: Iterable[Action], *, dry_run: bool, out: TextIO | None = None) -> int:
    """Print each action and do it (a dry run only prints); returns how many had work to do.

    Lines read ``ok <what>`` (already so), ``keep <what>`` (left on purpose), ``<verb> <what>``
    (done now), or on a dry run ``would <verb> <what>``.
    """
    out = sys.stdout if out is None else out
    changed = 0
    for a in actions:
        verb = a.state()
        if verb is None or isinstance(a, Note):
            print(f"{verb or 'ok':<13} {a.what}", file=out, flush=True)
            continue
        changed += 1
        if dry_run:
            print(f"{'would ' + verb:<13} {a.what}", file=out, flush=True)
            continue
        a.apply()
        a.applied = True
        print(f"{verb:<13} {a.what}", file=out, flush=True)
    return changed
