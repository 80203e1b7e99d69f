"""The plans: :func:`plan_install` and :func:`plan_uninstall` look at the system and list the
:class:`~table_app.install.actions.Action` s that bring it to the wanted state."""

from __future__ import annotations

from collections.abc import Sequence

from table_app.install.actions import Action, MakeDir, Note, Remove, Run, WriteFile
from table_app.install.broker import broker_actions, broker_available, broker_module
from table_app.install.contents import DOC_SRC, config_text, inputs_text, is_installed_config, sysusers_text, unit_text
from table_app.install.system import (
    ALL_UNITS,
    APP_UNIT,
    BACKUP_SERVICE,
    BACKUP_TIMER,
    CA_PUBLIC,
    CONFIG,
    DOC,
    HEADLESS_UNIT,
    INPUTS_ENV,
    MOSQUITTO_CONF,
    MOSQUITTO_DATA,
    MOSQUITTO_DROPIN,
    MOSQUITTO_PARLOUR,
    MQTT_ENV,
    MQTT_USERS,
    STATE_DIR,
    SYSUSERS,
    UNIT_DIR,
    USER,
    Target,
    read_passwd,
    unit_active,
    unit_enabled,
    user_ready,
)


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
    actions.append(Run(" ".join(argv), target=t, argv=argv, needed=lambda: not user_ready(root)))

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
        actions += broker_actions(t, broker, config)
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
        actions.append(Run(" ".join(argv), target=t, argv=argv, needed=lambda: unit_enabled(root, other)))
        actions.append(Remove(str(other_path), target=other_path))
    if t.live:
        actions.append(Run("systemctl daemon-reload", target=t, argv=["systemctl", "daemon-reload"],
                           needed=units_changed))
    enable = (unit, BACKUP_TIMER)
    argv = t.systemctl("enable", *(["--now"] if t.live else []), *enable)
    actions.append(Run(" ".join(argv), target=t, argv=argv,
                       needed=lambda: not all(unit_enabled(root, u) for u in enable)
                       or (t.live and not unit_active(t, unit))))
    if t.live:
        running = unit_active(t, unit)  # before this install: a changed unit then needs a restart to take effect
        actions.append(Run(f"systemctl restart {unit}", target=t, argv=["systemctl", "restart", unit],
                           needed=lambda: running and units_changed()))
    return actions


def plan_uninstall(t: Target) -> list[Action]:
    root = t.root
    actions: list[Action] = []
    present = [u for u in ALL_UNITS if t.path(UNIT_DIR / u).exists()]
    started = [u for u in present if u != BACKUP_SERVICE]  # the backup service runs only from its timer
    if started:
        argv = t.systemctl("disable", *(["--now"] if t.live else []), *started)
        actions.append(Run(" ".join(argv), target=t, argv=argv,
                           needed=lambda: any(unit_enabled(root, u) or (t.live and unit_active(t, u))
                                              for u in started)))
    for u in ALL_UNITS:
        p = t.path(UNIT_DIR / u)
        actions.append(Remove(str(p), target=p))
    tls_files = [t.path(MOSQUITTO_DATA / "tls" / f) for f in ("server.names", "server.crt", "server.key", "ca.crt",
                                                                 "ca.key")]
    broker_files = [t.path(MOSQUITTO_CONF), t.path(MOSQUITTO_PARLOUR), t.path(MOSQUITTO_DATA / "passwd"),
                    t.path(MOSQUITTO_DATA / "acl"), *tls_files, t.path(MQTT_ENV), t.path(MQTT_USERS), t.path(CA_PUBLIC),
                    t.path(MOSQUITTO_DROPIN)]
    had_broker = any(p.exists() for p in broker_files)
    had_dropin = t.path(MOSQUITTO_DROPIN).exists()
    actions += [Remove(str(p), target=p) for p in broker_files]
    if t.live:  # the units and mosquitto's drop-in are gone
        actions.append(Run("systemctl daemon-reload", target=t, argv=["systemctl", "daemon-reload"],
                           needed=lambda: bool(present) or had_dropin))
        actions.append(Run("systemctl try-restart mosquitto", target=t, argv=["systemctl", "try-restart", "mosquitto"],
                           needed=lambda: had_broker))
    config = t.path(CONFIG)
    if config.exists() and not is_installed_config(config):
        actions.append(Note(f"{config} (edited since the install: delete it yourself if you want)"))
    else:
        actions.append(Remove(str(config), target=config))
    actions += [Remove(str(p), target=p) for p in (t.path(INPUTS_ENV), t.path(SYSUSERS), t.path(DOC))]
    if t.path(STATE_DIR).exists():
        actions.append(Note(f"{t.path(STATE_DIR)} (the journal and its backups)"))
    if USER in read_passwd(root):
        actions.append(Note(f"user {USER} (it owns the journal; `userdel {USER}` removes it)"))
    return actions
