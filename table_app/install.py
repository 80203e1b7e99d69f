"""Install the table as a Pi appliance, and take it away again.

:func:`plan_install` and :func:`plan_uninstall` look at the system (or at a separate
``root`` for tests and images) and return the list of :class:`Action` s that would bring
it to the wanted state. Every action knows whether it is already done, so running the
plan twice changes nothing the second time, and ``--dry-run`` prints exactly the list
without doing any of it.

What an install puts in place (paths under ``root``):

- ``/etc/sysusers.d/xian-table.conf``, applied with ``systemd-sysusers``: the system user
  ``xian-table`` and the device groups it needs (gpio dialout video input render);
- ``/etc/xian-table/config.toml`` (written only if missing: a table owner's edits stay);
- ``/etc/xian-table/inputs.env``: ``XIAN_TABLE_INPUTS`` (``--gpio``, ``--panel DEVICE``),
  which the units append to ``ExecStart`` — kept from an earlier install unless given anew;
- ``/var/lib/xian-table`` (the journal and its backups; also the unit's StateDirectory);
- the unit — ``xian-table.service`` (touchscreen) or ``xian-table-headless.service`` —
  and ``xian-table-backup.service`` + ``.timer`` in ``/etc/systemd/system``, with
  ``ExecStart`` pointing at this very ``xian-table`` program, enabled;
- the broker, when mosquitto is installed: ``/etc/mosquitto/conf.d/xian-table.conf`` and
  ``/etc/mosquitto/xian-table/{passwd,acl}`` with generated passwords (the MQTT work's
  ``broker_setup.setup``), and the table's own password in ``/etc/xian-table/mqtt.env``
  (read by the units, never on a command line);
- this guide as ``/usr/share/doc/xian-table/raspberry-pi.md`` (the units link to it).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

USER = "xian-table"
GROUPS = ("gpio", "dialout", "video", "input", "render")
APP_UNIT = "xian-table.service"
HEADLESS_UNIT = "xian-table-headless.service"
BACKUP_SERVICE = "xian-table-backup.service"
BACKUP_TIMER = "xian-table-backup.timer"
ALL_UNITS = (APP_UNIT, HEADLESS_UNIT, BACKUP_SERVICE, BACKUP_TIMER)
SHIPPED_BIN = "/usr/local/bin/xian-table"  # ExecStart in systemd/*.service, replaced at install

SYSUSERS = Path("/etc/sysusers.d/xian-table.conf")
CONFIG_DIR = Path("/etc/xian-table")
CONFIG = CONFIG_DIR / "config.toml"
MQTT_ENV = CONFIG_DIR / "mqtt.env"
MQTT_USERS = CONFIG_DIR / "mqtt-users"  # the other broker users' passwords, root only (xian-table mqtt-users)
CA_PUBLIC = CONFIG_DIR / "ca.crt"  # the broker's CA for clients to trust, when TLS is on
INPUTS_ENV = CONFIG_DIR / "inputs.env"
STATE_DIR = Path("/var/lib/xian-table")
UNIT_DIR = Path("/etc/systemd/system")
MOSQUITTO_CONF = Path("/etc/mosquitto/conf.d/xian-table.conf")
MOSQUITTO_DATA = Path("/etc/mosquitto/xian-table")
DOC = Path("/usr/share/doc/xian-table/raspberry-pi.md")

REPO = Path(__file__).resolve().parents[1]
UNITS_SRC = REPO / "systemd"
DOC_SRC = REPO / "docs" / "raspberry-pi.md"

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


class InstallError(RuntimeError):
    """The install cannot go on; what was done so far is listed and stays consistent."""


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=300)


@dataclass
class Target:
    """Where and how: the file system ``root`` ("/" for the real system), commands runner."""

    root: Path = Path("/")
    runner: Runner = run_command
    binary: str = SHIPPED_BIN

    @property
    def live(self) -> bool:
        """True on the running system: systemctl talks to systemd, services are started."""
        return self.root.resolve() == Path("/")

    def path(self, p: Path) -> Path:
        return self.root / p.relative_to("/")

    def run(self, argv: Sequence[str]) -> None:
        proc = self.runner(argv)
        if proc.returncode != 0:
            detail = (proc.stderr or proc.stdout or "").strip()
            raise InstallError(f"{' '.join(argv)} failed ({proc.returncode}): {detail}")

    def systemctl(self, *args: str) -> list[str]:
        return ["systemctl", *([] if self.live else [f"--root={self.root}"]), *args]


# -- actions ---------------------------------------------------------------------------


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
        _write_atomic(self.target, self.content(), self.mode)


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
        ids = _ids_in(self.root, self.owner)
        if (st.st_mode & 0o7777) != self.mode or (ids and os.geteuid() == 0 and (st.st_uid, st.st_gid) != ids):
            return "fix"
        return None

    def apply(self) -> None:
        self.target.mkdir(parents=True, exist_ok=True)
        os.chmod(self.target, self.mode)
        ids = _ids_in(self.root, self.owner)
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


def execute(actions: Iterable[Action], *, dry_run: bool, out: Any = None) -> int:
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


# -- what an install contains ----------------------------------------------------------


def sysusers_text() -> str:
    lines = ["# xian-table: the table's system user and the device groups it uses (systemd-sysusers)"]
    lines += [f"g {g} -" for g in GROUPS]
    lines.append(f'u {USER} - "xian-table mahjong table" {STATE_DIR} /usr/sbin/nologin')
    lines += [f"m {USER} {g}" for g in GROUPS]
    return "\n".join(lines) + "\n"


def config_text(mqtt_user: str | None) -> str:
    """The installed config: every key at its default, the journal in the state directory."""
    from table_app.config import defaults_toml, parse_config

    text = defaults_toml()
    lines = text.splitlines()
    out: list[str] = []
    section = ""
    for line in lines:
        if line.startswith("["):
            section = line.strip("[]")
        if section == "journal" and line.startswith("path = "):
            line = f'path = "{STATE_DIR / "journal.sqlite3"}"'
        if section == "mqtt" and line.startswith("url = ") and mqtt_user:
            line = f'url = "mqtt://{mqtt_user}@localhost:1883"'
        out.append(line)
    result = "# xian-table: written by `xian-table install`; edit freely (docs/config.md)\n" + "\n".join(out) + "\n"
    parse_config(result, "installed config")  # never install a file the table would refuse
    return result


def unit_text(name: str, binary: str) -> bytes:
    src = UNITS_SRC / name
    try:
        text = src.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InstallError(f"the unit {name} is not at {src}: install from a xian-table checkout") from None
    text = text.replace(SHIPPED_BIN, binary)
    if binary.startswith(("/home/", "/root/")):
        # The program lives in a home folder (a checkout's .venv): let the service read it.
        text = text.replace("ProtectHome=yes", "ProtectHome=read-only")
    return text.encode()


def find_binary() -> str:
    """The ``xian-table`` program to run from the units: the one beside this Python."""
    beside = Path(sys.executable).parent / "xian-table"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside.absolute())
    found = shutil.which("xian-table")
    if found:
        return str(Path(found).absolute())
    raise InstallError("cannot find the xian-table program (give --bin PATH)")


def broker_module() -> Any | None:
    """The MQTT work's ``broker_setup`` module, if this tree has it."""
    try:
        from table_app.mqtt import broker_setup
    except ImportError:
        return None
    return broker_setup


def broker_available() -> bool:
    return broker_module() is not None and shutil.which("mosquitto_passwd") is not None


def inputs_text(inputs: Sequence[str]) -> str:
    """The units' ``XIAN_TABLE_INPUTS`` (``--gpio``, ``--panel DEVICE``), one EnvironmentFile line.

    >>> print(inputs_text(["--gpio", "--panel", "/dev/ttyACM0"]), end="")
    # the table's buttons for the units' ExecStart (xian-table install --gpio / --panel DEVICE)
    XIAN_TABLE_INPUTS=--gpio --panel /dev/ttyACM0
    """
    for word in inputs:
        if not word or any(c.isspace() or c in "$\\\"'" for c in word):
            raise InstallError(f"an input argument cannot contain spaces, quotes or '$': {word!r}")
    return ("# the table's buttons for the units' ExecStart (xian-table install --gpio / --panel DEVICE)\n"
            f"XIAN_TABLE_INPUTS={' '.join(inputs)}\n")


def panel_device(inputs_env: Path) -> str:
    """The ``--panel`` device an installed table uses ("" when none)."""
    try:
        text = inputs_env.read_text(encoding="utf-8")
    except OSError:
        return ""
    for line in text.splitlines():
        if line.startswith("XIAN_TABLE_INPUTS="):
            words = line.split("=", 1)[1].split()
            if "--panel" in words[:-1]:
                return words[words.index("--panel") + 1]
    return ""


def plan_install(t: Target, *, headless: bool, inputs: Sequence[str] | None = None) -> list[Action]:
    """The steps; ``inputs`` (``--gpio``, ``--panel DEVICE``) replace the installed ones, None keeps them."""
    unit = HEADLESS_UNIT if headless else APP_UNIT
    other = APP_UNIT if headless else HEADLESS_UNIT
    root = t.root
    broker = broker_module() if broker_available() else None
    actions: list[Action] = []

    sysusers = t.path(SYSUSERS)
    actions.append(WriteFile(str(sysusers), target=sysusers, content=lambda: sysusers_text().encode()))
    argv = ["systemd-sysusers", *([] if t.live else [f"--root={root}"]), str(sysusers)]
    actions.append(Run(" ".join(argv), target=t, argv=argv, needed=lambda: not _user_ready(root)))

    state = t.path(STATE_DIR)
    actions.append(MakeDir(str(state), target=state, mode=0o750, owner=USER, root=root))

    config = t.path(CONFIG)
    mqtt_user = USER if broker is not None else None
    actions.append(WriteFile(str(config), target=config, keep_existing=True,
                             content=lambda: config_text(mqtt_user).encode()))
    inputs_env = t.path(INPUTS_ENV)
    chosen = inputs_text(inputs or [])
    actions.append(WriteFile(str(inputs_env), target=inputs_env, keep_existing=inputs is None,
                             content=lambda: chosen.encode()))

    if broker is not None:
        actions += _broker_actions(t, broker, config)
    else:
        missing = "the MQTT part of xian-table" if broker_module() is None else "mosquitto (mosquitto_passwd)"
        actions.append(Note(f"the broker: {missing} is not installed; sudo apt install mosquitto, then install "
                            f"again", verb="skip"))

    doc = t.path(DOC)
    if DOC_SRC.is_file():
        actions.append(WriteFile(str(doc), target=doc, content=DOC_SRC.read_bytes))

    writes: list[WriteFile] = []
    for name in (unit, BACKUP_SERVICE, BACKUP_TIMER):
        p = t.path(UNIT_DIR / name)
        writes.append(WriteFile(str(p), target=p, content=lambda n=name: unit_text(n, t.binary)))  # type: ignore[misc]
    actions += writes

    def units_changed() -> bool:
        return any(w.applied or w.state() is not None for w in writes)

    other_path = t.path(UNIT_DIR / other)
    if other_path.exists():
        argv = t.systemctl("disable", *(["--now"] if t.live else []), other)
        actions.append(Run(" ".join(argv), target=t, argv=argv, needed=lambda: _enabled(root, other)))
        actions.append(Remove(str(other_path), target=other_path))
    if t.live:
        actions.append(Run("systemctl daemon-reload", target=t, argv=["systemctl", "daemon-reload"],
                           needed=units_changed))
    enable = (unit, BACKUP_TIMER)
    argv = t.systemctl("enable", *(["--now"] if t.live else []), *enable)
    actions.append(Run(" ".join(argv), target=t, argv=argv,
                       needed=lambda: not all(_enabled(root, u) for u in enable) or (t.live and not _active(t, unit))))
    if t.live:
        running = _active(t, unit)  # before this install: a changed unit then needs a restart to take effect
        actions.append(Run(f"systemctl restart {unit}", target=t, argv=["systemctl", "restart", unit],
                           needed=lambda: running and units_changed()))
    return actions


def _broker_actions(t: Target, broker: Any, config: Path) -> list[Action]:
    """The broker: its users (passwords made once, kept: the table's in mqtt.env, the others in
    mqtt-users), its config from the table's [broker] keys, and TLS when asked for."""
    from table_app.mqtt import tls

    root = t.root
    data, conf, env, users = t.path(MOSQUITTO_DATA), t.path(MOSQUITTO_CONF), t.path(MQTT_ENV), t.path(MQTT_USERS)
    cfg = _table_config(config)
    actions: list[Action] = []

    def setup_users() -> None:
        creds = broker.setup(data, force=True, prefix=cfg.mqtt_prefix)
        write_credentials(root, creds)

    actions.append(Run(f"broker users with new passwords: {data / 'passwd'} {data / 'acl'} {env} {users}",
                       body=setup_users, needed=lambda: not (data / "passwd").exists() or not env.exists()))
    listen, tls_listen = list(cfg.broker_listen), list(cfg.broker_tls_listen)
    actions.append(WriteFile(str(conf), target=conf, mode=0o644,
                             content=lambda: broker.conf_text(listen, tls_listen, MOSQUITTO_DATA).encode()))
    if tls_listen:
        folder, public = data / "tls", t.path(CA_PUBLIC)
        names = tls.wanted_names([*listen, *tls_listen], cfg.broker_tls_names)

        def make_tls() -> None:
            if tls.needs_work(folder, names):
                tls.make(folder, names, broker_group=_group_id(root, "mosquitto"))
            _write_atomic(public, (folder / "ca.crt").read_bytes(), 0o644)

        def tls_needed() -> bool:
            return tls.needs_work(folder, names) or not public.exists() or \
                public.read_bytes() != (folder / "ca.crt").read_bytes()

        actions.append(Run(f"TLS for the broker: a CA and a certificate for {' '.join(names)}: {folder} {public}",
                           body=make_tls, needed=tls_needed))
    if t.live:
        broker_steps = list(actions)
        actions.append(Run("systemctl restart mosquitto", target=t, argv=["systemctl", "restart", "mosquitto"],
                           needed=lambda: any(a.applied for a in broker_steps)))
    return actions


def write_credentials(root: Path, creds: dict[str, str]) -> None:
    """Keep the passwords ``broker_setup.setup`` made: the table's where its units read it, the
    others root-only for ``xian-table mqtt-users show`` (never printed by the install)."""
    from table_app.mqtt.broker_setup import DEFAULT_USERS

    env, users = root / MQTT_ENV.relative_to("/"), root / MQTT_USERS.relative_to("/")
    if USER in creds:
        _write_atomic(env, f"# the table's MQTT password (xian-table install; xian-table mqtt-users)\n"
                           f"{broker_password_env()}={creds[USER]}\n".encode(), 0o640, group_of=(root, USER))
    kept = read_kept(users)
    for role, name in DEFAULT_USERS:
        if role != "service" and name in creds:
            kept[role] = (name, creds[name])
    lines = ["# the broker users' passwords: ROLE USER PASSWORD (xian-table install; sudo xian-table mqtt-users "
             "show). Root only."]
    lines += [f"{role} {name} {password}" for role, (name, password) in sorted(kept.items())]
    _write_atomic(users, ("\n".join(lines) + "\n").encode(), 0o600)


def read_kept(users: Path) -> dict[str, tuple[str, str]]:
    """role → (user, password) from the root-only file (empty when there is none)."""
    try:
        text = users.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and not line.startswith("#"):
            out[parts[0]] = (parts[1], parts[2])
    return out


def plan_uninstall(t: Target) -> list[Action]:
    root = t.root
    actions: list[Action] = []
    present = [u for u in ALL_UNITS if t.path(UNIT_DIR / u).exists()]
    started = [u for u in present if u != BACKUP_SERVICE]  # the backup service runs only from its timer
    if started:
        argv = t.systemctl("disable", *(["--now"] if t.live else []), *started)
        actions.append(Run(" ".join(argv), target=t, argv=argv,
                           needed=lambda: any(_enabled(root, u) or (t.live and _active(t, u)) for u in started)))
    for u in ALL_UNITS:
        p = t.path(UNIT_DIR / u)
        actions.append(Remove(str(p), target=p))
    if t.live:
        actions.append(Run("systemctl daemon-reload", target=t, argv=["systemctl", "daemon-reload"],
                           needed=lambda: bool(present)))
    tls_files = [t.path(MOSQUITTO_DATA / "tls" / f) for f in ("server.names", "server.crt", "server.key", "ca.crt",
                                                                 "ca.key")]
    broker_files = [t.path(MOSQUITTO_CONF), t.path(MOSQUITTO_DATA / "passwd"), t.path(MOSQUITTO_DATA / "acl"),
                    *tls_files, t.path(MQTT_ENV), t.path(MQTT_USERS), t.path(CA_PUBLIC)]
    had_broker = any(p.exists() for p in broker_files)
    actions += [Remove(str(p), target=p) for p in broker_files]
    if t.live:
        actions.append(Run("systemctl try-restart mosquitto", target=t, argv=["systemctl", "try-restart", "mosquitto"],
                           needed=lambda: had_broker))
    config = t.path(CONFIG)
    if config.exists() and not _is_installed_config(config):
        actions.append(Note(f"{config} (edited since the install: delete it yourself if you want)"))
    else:
        actions.append(Remove(str(config), target=config))
    actions += [Remove(str(p), target=p) for p in (t.path(INPUTS_ENV), t.path(SYSUSERS), t.path(DOC))]
    if t.path(STATE_DIR).exists():
        actions.append(Note(f"{t.path(STATE_DIR)} (the journal and its backups)"))
    if USER in _passwd(root):
        actions.append(Note(f"user {USER} (it owns the journal; `userdel {USER}` removes it)"))
    return actions


# -- looking at the system -------------------------------------------------------------


def _passwd(root: Path) -> dict[str, tuple[int, int]]:
    try:
        text = (root / "etc/passwd").read_text(encoding="utf-8")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit() and parts[3].isdigit():
            out[parts[0]] = (int(parts[2]), int(parts[3]))
    return out


def _groups(root: Path) -> dict[str, tuple[int, set[str]]]:
    try:
        text = (root / "etc/group").read_text(encoding="utf-8")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit():
            out[parts[0]] = (int(parts[2]), {m for m in parts[3].split(",") if m})
    return out


def _ids_in(root: Path, user: str | None) -> tuple[int, int] | None:
    if user is None:
        return None
    if root.resolve() == Path("/"):
        try:
            pw = pwd.getpwnam(user)
            return pw.pw_uid, pw.pw_gid
        except KeyError:
            return None
    return _passwd(root).get(user)


def _user_ready(root: Path) -> bool:
    if USER not in _passwd(root):
        return False
    groups = _groups(root)
    return all(g in groups and USER in groups[g][1] for g in GROUPS)


def _enabled(root: Path, unit: str) -> bool:
    wants = "timers.target.wants" if unit.endswith(".timer") else "multi-user.target.wants"
    return (root / UNIT_DIR.relative_to("/") / wants / unit).is_symlink()


def _active(t: Target, unit: str) -> bool:
    return t.runner(["systemctl", "is-active", "--quiet", unit]).returncode == 0


def _write_atomic(p: Path, data: bytes, mode: int, group_of: tuple[Path, str] | None = None) -> None:
    """Write through a temporary file and rename: a power cut leaves the old file or the new."""
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, mode)
    if group_of is not None and os.geteuid() == 0:
        ids = _ids_in(*group_of)
        if ids is not None:
            os.chown(tmp, 0, ids[1])
    os.replace(tmp, p)


def broker_password_env() -> str:
    from table_app.mqtt.topics import PASSWORD_ENV

    return str(PASSWORD_ENV)


def _table_config(config: Path) -> Any:
    """The table's config (the broker's prefix, listeners, TLS): the file's, else the defaults."""
    from table_app.config import Config, ConfigError, load_config

    try:
        return load_config(config) if config.exists() else Config()
    except ConfigError:
        return Config()


def _group_id(root: Path, name: str) -> int | None:
    found = _groups(root).get(name)
    return found[0] if found else None


def _is_installed_config(config: Path) -> bool:
    try:
        text = config.read_text(encoding="utf-8")
    except OSError:
        return False
    return text in (config_text(None), config_text("xian-table"))
