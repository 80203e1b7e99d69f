"""``xian-table parlour-join HOST[:PORT] --password-file F``: link this table to a parlour.

Writes the table's mosquitto bridge to the parlour's broker (``table_app/mqtt/parlour_bridge.py``)
as ``/etc/mosquitto/conf.d/xian-table.parlour.conf`` (mode 0600, the broker's user's: it holds
the table's parlour password), lets the table's own login read the bridge's state (one
addition to the broker's ACL, for ``doctor``) and restarts mosquitto (a bridge is read only at
its start). The table's listeners, users and ACL stay as they are. ``--dry-run`` prints the
config (the password left out) and changes nothing. Running it again replaces the link.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = "link this table to a parlour: its broker bridged to the parlour's (--dry-run prints the config)"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar="HOST[:PORT]", help="the parlour's broker (port 1883, or 8883 with --tls)")
    p.add_argument("--user", help="the table's user at the parlour (default: table-<table id>)")
    p.add_argument("--password-file", metavar="FILE", required=True,
                   help="a file whose first line is the table's password at the parlour (never on the command line)")
    p.add_argument("--tls", action="store_true", help="TLS to the parlour's broker (needs --cafile)")
    p.add_argument("--cafile", metavar="FILE", help="with --tls: the certificate authority of the parlour's broker")
    p.add_argument("--table", help="the table id (default: table.id from the config)")
    p.add_argument("--config", metavar="FILE", help="the TOML config file (default: the user's, then /etc/xian-table/)")
    p.add_argument("--dry-run", action="store_true", help="print the config and change nothing")
    p.add_argument("--root", metavar="DIR", default="/",
                   help="write into this directory instead of / (an image, or tests); nothing is restarted")


def _refuse(why: str, status: int = 2) -> int:
    print(f"xian-table parlour-join: {why}", file=sys.stderr)
    return status


def run(args: argparse.Namespace) -> int:
    from table_app.config.file import ConfigError, load_config
    from table_app.install.system import MOSQUITTO_DATA, MOSQUITTO_PARLOUR, InstallError, Target, ids_in, write_atomic
    from table_app.mqtt.broker_setup import DEFAULT_USERS
    from table_app.mqtt.parlour_bridge import ACL_MARK, ParlourLink, acl_addition, parse_address
    from table_app.mqtt.topics import parse_url

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        return _refuse(str(e))
    table = args.table or cfg.table_id
    if args.tls != bool(args.cafile):
        return _refuse("--tls and --cafile go together: the parlour broker's CA is how the table knows it")
    try:
        host, port = parse_address(args.address, tls=args.tls)
        password = Path(args.password_file).read_text(encoding="utf-8").split("\n", 1)[0].rstrip("\r")
        cafile = Path(args.cafile).absolute() if args.cafile else None
        if cafile is not None and not cafile.is_file():
            return _refuse(f"no CA file at {cafile}")
        link = ParlourLink(table, host, port, args.user or f"table-{table}", password, cfg.mqtt_prefix, cafile)
    except OSError as e:
        return _refuse(f"cannot read {e.filename}: {e.strerror}")
    except ValueError as e:
        return _refuse(str(e))
    target = Target(root=Path(args.root).absolute())
    conf = target.path(MOSQUITTO_PARLOUR)
    if args.dry_run:
        print(f"# would write {conf} (0600) and restart mosquitto:")
        sys.stdout.write(link.conf_text(shown_password=f"<the first line of {args.password_file}>"))
        return 0
    if target.live and os.geteuid() != 0:
        return _refuse("it writes the broker's config: run it as root (sudo), or look first with --dry-run", 1)
    broker_user = ids_in(target.root, "mosquitto")
    write_atomic(conf, link.conf_text().encode(), 0o600)
    if broker_user is not None and os.geteuid() == 0:  # (mosquitto reads conf.d again as its own user on a reload)
        os.chown(conf, *broker_user)
    print(f"wrote {conf}: the bridge parlour-{table} to {host}:{port} as {link.user}")
    acl = target.path(MOSQUITTO_DATA / "acl")
    service = parse_url(cfg.mqtt_url).username if cfg.mqtt_url else None
    if acl.exists() and ACL_MARK not in acl.read_text(encoding="utf-8"):
        with acl.open("a", encoding="utf-8") as f:
            f.write(acl_addition(service or dict(DEFAULT_USERS)["service"]))
        print(f"{acl}: the table's login may read the bridge's state (for xian-table doctor)")
    if target.live:
        try:
            target.run(["systemctl", "restart", "mosquitto"])
        except InstallError as e:
            return _refuse(f"{e} (journalctl -u mosquitto says why)", 1)
        print("mosquitto restarted with the bridge; xian-table doctor shows the link's state")
    return 0
