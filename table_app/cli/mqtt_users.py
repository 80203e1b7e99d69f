"""``xian-table mqtt-users show|rotate ROLE``: the broker users' passwords that the install kept.

``show`` prints them (root only: the install keeps the table's in ``/etc/xian-table/mqtt.env``
and the others in ``/etc/xian-table/mqtt-users``, 0600) and changes nothing. ``rotate ROLE``
gives that one user a new password — in mosquitto's password file, where it is kept, and
then asks mosquitto to reload its users (its other clients stay connected). Only ``rotate
service`` changes the table's own password, and then it restarts the table so that it logs
in with the new one; nothing else ever touches it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from table_app.install.system import Target

HELP = "the broker users' passwords: show them, or give one user (ROLE) a new one"
ROLES = ("service", "display", "homeassistant", "remote")


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("show", "rotate"), help="show: print them; rotate: a new password for ROLE")
    p.add_argument("role", nargs="?", choices=ROLES, metavar="ROLE",
                   help=f"one of {', '.join(ROLES)} (show: all when left out; rotate: required)")
    p.add_argument("--root", metavar="DIR", default="/", help="an installed tree other than / (an image, tests)")


def run(args: argparse.Namespace) -> int:
    from table_app.install.system import InstallError, Target

    target = Target(root=Path(args.root).absolute())
    if args.action == "rotate" and args.role is None:
        print("xian-table mqtt-users: rotate needs the ROLE whose password changes "
              f"({', '.join(ROLES)})", file=sys.stderr)
        return 2
    try:
        if args.action == "show":
            return show(target, args.role)
        return rotate(target, args.role)
    except PermissionError as e:
        print(f"xian-table mqtt-users: cannot read {e.filename}: run it as root (sudo)", file=sys.stderr)
        return 1
    except (InstallError, RuntimeError, OSError) as e:
        print(f"xian-table mqtt-users: {e}", file=sys.stderr)
        return 1


def _users(target: Target) -> dict[str, tuple[str, str | None]]:
    """role → (user, password or None when not kept), for the roles in the broker's password file."""
    from table_app.install.broker import read_kept
    from table_app.install.system import MOSQUITTO_DATA, MQTT_ENV, MQTT_USERS
    from table_app.mqtt.broker_setup import DEFAULT_USERS
    from table_app.mqtt.topics import PASSWORD_ENV

    passwd = target.path(MOSQUITTO_DATA / "passwd")
    if not passwd.exists():
        raise RuntimeError(f"no broker users here ({passwd} is missing): sudo xian-table install makes them")
    names = {line.split(":", 1)[0] for line in passwd.read_text(encoding="utf-8").splitlines() if ":" in line}
    kept = read_kept(target.path(MQTT_USERS))
    out: dict[str, tuple[str, str | None]] = {}
    for role, name in DEFAULT_USERS:
        if name not in names:
            continue
        if role == "service":
            env = target.path(MQTT_ENV)
            text = env.read_text(encoding="utf-8") if env.exists() else ""
            found = [line.split("=", 1)[1].strip() for line in text.splitlines() if line.startswith(f"{PASSWORD_ENV}=")]
            out[role] = (name, found[0] if found else None)
        else:
            user, password = kept.get(role, (name, ""))
            out[role] = (name, password if user == name and password else None)
    return out


def show(target: Target, role: str | None) -> int:
    users = _users(target)
    if role is not None and role not in users:
        print(f"xian-table mqtt-users: the broker has no {role} user", file=sys.stderr)
        return 1
    print(f"{'role':<14} {'user':<16} password")
    for r, (name, password) in users.items():
        if role is None or r == role:
            shown = password or f"(not kept by the install that made it: sudo xian-table mqtt-users rotate {r})"
            note = "   (the table's own, in /etc/xian-table/mqtt.env)" if r == "service" and password else ""
            print(f"{r:<14} {name:<16} {shown}{note}")
    return 0


def rotate(target: Target, role: str) -> int:
    from table_app.install.broker import write_credentials
    from table_app.install.system import MOSQUITTO_DATA, USER
    from table_app.mqtt.broker_setup import generate_password, set_password

    users = _users(target)
    if role not in users:
        print(f"xian-table mqtt-users: the broker has no {role} user", file=sys.stderr)
        return 1
    live = target.live
    if live and os.geteuid() != 0:
        print("xian-table mqtt-users: rotate changes the broker's password file: run it as root (sudo)",
              file=sys.stderr)
        return 1
    name = users[role][0]
    password = generate_password()
    set_password(target.path(MOSQUITTO_DATA / "passwd"), name, password)
    write_credentials(target.root, {name: password})
    print(f"{role} ({name}) has a new password: {password}")
    if live:
        target.run(["systemctl", "reload-or-restart", "mosquitto"])
        print("mosquitto reloaded its users; clients still using the old password are refused at their next login")
        if name == USER:
            target.run(["systemctl", "try-restart", "xian-table.service", "xian-table-headless.service"])
            print("the table restarted with its new password")
    elif name == USER:
        print(f"the table logs in with it from its next start ({target.root}/etc/xian-table/mqtt.env)")
    return 0
