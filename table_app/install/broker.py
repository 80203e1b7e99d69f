"""The broker's part of an install: its users (passwords made once and kept), its config
from the table's ``[broker]`` keys, and TLS when asked for — when mosquitto is installed."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from table_app.install.actions import Action, Run, WriteFile
from table_app.install.system import (
    CA_PUBLIC,
    MOSQUITTO_CONF,
    MOSQUITTO_DATA,
    MOSQUITTO_DROPIN,
    MQTT_ENV,
    MQTT_USERS,
    USER,
    Target,
    group_id,
    write_atomic,
)

if TYPE_CHECKING:
    from table_app.config.file import Config


def broker_module() -> ModuleType | None:
    """The MQTT work's ``broker_setup`` module, if this tree has it."""
    try:
        from table_app.mqtt import broker_setup
    except ImportError:
        return None
    return broker_setup


def broker_available() -> bool:
    return broker_module() is not None and shutil.which("mosquitto_passwd") is not None


def broker_actions(t: Target, broker: ModuleType, config: Path) -> list[Action]:
    """The broker: its users (passwords made once, kept: the table's in mqtt.env, the others in
    mqtt-users), its config from the table's [broker] keys, and TLS when asked for."""
    from table_app.mqtt import tls

    root = t.root
    data, conf, env, users = t.path(MOSQUITTO_DATA), t.path(MOSQUITTO_CONF), t.path(MQTT_ENV), t.path(MQTT_USERS)
    cfg = table_config(config)
    actions: list[Action] = []

    def setup_users() -> None:  # the image's mosquitto group, not this machine's (None: the drop-in's chgrp)
        creds = broker.setup(data, force=True, prefix=cfg.mqtt_prefix, broker_group=group_id(root, "mosquitto"))
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
                tls.make(folder, names, broker_group=group_id(root, "mosquitto"))
            write_atomic(public, (folder / "ca.crt").read_bytes(), 0o644)

        def tls_needed() -> bool:
            return tls.needs_work(folder, names) or not public.exists() or \
                public.read_bytes() != (folder / "ca.crt").read_bytes()

        actions.append(Run(f"TLS for the broker: a CA and a certificate for {' '.join(names)}: {folder} {public}",
                           body=make_tls, needed=tls_needed))
    dropin = t.path(MOSQUITTO_DROPIN)
    dropin_write = WriteFile(str(dropin), target=dropin, mode=0o644, content=lambda: broker.dropin_text(
        len(listen) + len(tls_listen), bool(tls_listen), MOSQUITTO_DATA).encode())
    actions.append(dropin_write)
    if t.live:
        broker_steps = list(actions)
        actions.append(Run("systemctl daemon-reload", target=t, argv=["systemctl", "daemon-reload"],
                           needed=lambda: dropin_write.applied))
        actions.append(Run("systemctl restart mosquitto", target=t, argv=["systemctl", "restart", "mosquitto"],
                           needed=lambda: any(a.applied for a in broker_steps)))
    return actions


def write_credentials(root: Path, creds: dict[str, str]) -> None:
    """Keep the passwords ``broker_setup.setup`` made: the table's where its units read it, the
    others root-only for ``xian-table mqtt-users show`` (never printed by the install)."""
    from table_app.mqtt.broker_setup import DEFAULT_USERS

    env, users = root / MQTT_ENV.relative_to("/"), root / MQTT_USERS.relative_to("/")
    if USER in creds:
        write_atomic(env, f"# the table's MQTT password (xian-table install; xian-table mqtt-users)\n"
                          f"{broker_password_env()}={creds[USER]}\n".encode(), 0o640, group_of=(root, USER))
    kept = read_kept(users)
    for role, name in DEFAULT_USERS:
        if role != "service" and name in creds:
            kept[role] = (name, creds[name])
    lines = ["# the broker users' passwords: ROLE USER PASSWORD (xian-table install; sudo xian-table mqtt-users "
             "show). Root only."]
    lines += [f"{role} {name} {password}" for role, (name, password) in sorted(kept.items())]
    write_atomic(users, ("\n".join(lines) + "\n").encode(), 0o600)


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


def broker_password_env() -> str:
    from table_app.mqtt.topics import PASSWORD_ENV

    return str(PASSWORD_ENV)


def table_config(config: Path) -> Config:
    """The table's config (the broker's prefix, listeners, TLS): the file's, else the defaults."""
    from table_app.config.file import Config, ConfigError, load_config

    try:
        return load_config(config) if config.exists() else Config()
    except ConfigError:
        return Config()
