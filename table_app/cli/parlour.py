"""``xian-table parlour serve | tables add|retire|list|place | fee T|all | takings | leaderboard``: the parlour.

``serve`` keeps every table's journal in the parlour database (parlour/service.py);
``tables add T`` gives table T its user on the parlour's mosquitto and prints what to run on
the table; ``tables retire T`` takes the user away (its records stay); ``tables list`` shows
each table, when it was last seen, its journals and records; ``tables place`` puts it on the
owner's floor plan (``serve --http``: :mod:`parlour.floor_routes`); ``fee`` sends one
table or all their fee (台费: ``parlour/fee_command.py``); ``takings`` and
``leaderboard``: :mod:`table_app.cli.parlour_reports`. docs/parlour-service.md.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from table_app.cli import parlour_reports
from table_app.present.words import tr

if TYPE_CHECKING:
    from parlour.db import Database
    from parlour.floor_routes import FloorServer
    from parlour.service import Parlour

HELP = "the parlour: keep every table's journal in one database (serve), add, retire and list tables"
_TABLE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="FILE|URL", default=os.environ.get("XIAN_PARLOUR_DB") or None,
                   help="the parlour database: an SQLite file, or postgresql://USER@HOST/DB "
                        "(default: $XIAN_PARLOUR_DB, else parlour.sqlite3 in the user data folder)")


def _broker_dir_option(p: argparse.ArgumentParser) -> None:
    from parlour.broker import DATA_DIR

    p.add_argument("--broker-dir", type=Path, default=DATA_DIR, metavar="DIR",
                   help=f"the parlour mosquitto's passwd and acl (default {DATA_DIR})")
    p.add_argument("--broker-pid", type=int, metavar="PID",
                   help="send this mosquitto SIGHUP to read them again (default: systemctl reload for the default "
                        "folder)")


def _broker_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--broker", default=os.environ.get("XIAN_PARLOUR_BROKER") or "mqtt://xian-parlour@127.0.0.1:1883",
                   metavar="URL",
                   help="the parlour mosquitto, mqtt://USER@HOST:PORT or mqtts://… (default: $XIAN_PARLOUR_BROKER, "
                        "else %(default)s)")
    p.add_argument("--password-file", type=Path, metavar="FILE",
                   help="the broker password (default: $XIAN_PARLOUR_MQTT_PASSWORD, or service.password in "
                        "--broker-dir when readable)")
    p.add_argument("--broker-dir", type=Path, default=None, metavar="DIR", help=argparse.SUPPRESS)
    p.add_argument("--cafile", type=Path, help="the CA certificate of an mqtts:// broker")
    p.add_argument("--prefix", default="xian", help="the tables' topic prefix (default %(default)s)")


def _fee_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from engine.fees import FEE_MODES, FEE_PAYERS

    f = sub.add_parser("fee",
                       help=f"send tables their fee ({tr('tk_fee', 'zh')}): their default, and the session in play's")
    f.add_argument("table", help="a table's id, or all (every table added and not retired)")
    f.add_argument("--mode", choices=FEE_MODES, help=f"per started hour, settled hand ({tr('cli_hand_word', 'zh')}), "
                   f"round begun ({tr('cli_round_word', 'zh')}) or session")
    f.add_argument("--rate", type=int, metavar="N", help="points per hour, hand, round or session")
    f.add_argument("--min", type=int, default=0, dest="fee_min", metavar="N",
                   help="the table fee is at least this (default 0)")
    f.add_argument("--cap", type=int, metavar="N", help="and at most this (default: no cap)")
    f.add_argument("--payer", choices=FEE_PAYERS, default="aa", help="who pays it (default aa)")
    f.add_argument("--tea", type=int, default=0, metavar="N",
                   help=f"tea ({tr('cli_tea', 'zh')}): each seat pays this once per session (default 0)")
    f.add_argument("--none", action="store_true", help="no fee from now on (instead of --mode and --rate)")
    f.add_argument("--wait", type=float, default=10.0, metavar="S", help="seconds to wait for the tables' answers")
    _db_option(f)
    _broker_options(f)


def register(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    s = sub.add_parser("serve", help="keep the tables' journals in the parlour database (the service)")
    _db_option(s)
    _broker_options(s)
    s.add_argument("--client-id", default="xian-parlour", help="the MQTT client id: fixed, so the session persists")
    s.add_argument("--ha-prefix", default="homeassistant", metavar="PREFIX",
                   help="Home Assistant's discovery prefix (default %(default)s; '' for no discovery)")
    s.add_argument("--http", nargs="?", const=":8090", metavar="[HOST:]PORT",
                   help="also serve the owner's pages (/parlour: the floor, each table's page) here "
                        "(default :8090, every address); the owner's link is printed")
    s.add_argument("-v", "--verbose", action="store_true", help="log each replay request and answer")
    _fee_parser(sub)
    t = sub.add_parser("tables", help="add, retire or list the tables")
    tsub = t.add_subparsers(dest="tables_action", metavar="WHAT", required=True)
    add = tsub.add_parser("add", help="a table's user on the parlour broker; prints what to run on the table")
    add.add_argument("table", help="the table's id (its table.id)")
    add.add_argument("--host", help="the parlour broker's address as the tables reach it (default: this host's name)")
    add.add_argument("--port", type=int, default=1883)
    add.add_argument("--write-password", type=Path, metavar="FILE",
                     help="also write the table's password to FILE (0600), to copy to the table")
    _db_option(add)
    _broker_dir_option(add)
    retire = tsub.add_parser("retire", help="take a table's user away (its records stay)")
    retire.add_argument("table")
    _db_option(retire)
    _broker_dir_option(retire)
    ls = tsub.add_parser("list", help="the tables: last seen, online, journals, records")
    _db_option(ls)
    place = tsub.add_parser("place", help="put a table on the floor plan (/parlour): column and row, from 1")
    place.add_argument("table")
    place.add_argument("col", type=int, help="the column, from 1 (left)")
    place.add_argument("row", type=int, help="the row, from 1 (top)")
    _db_option(place)
    unplace = tsub.add_parser("unplace", help="take a table off the plan (it goes back to the grid in table order)")
    unplace.add_argument("table")
    _db_option(unplace)
    parlour_reports.register(sub, _db_option)


def run(args: argparse.Namespace) -> int:
    from parlour.db import Database

    try:
        if args.action == "serve":
            return serve(args)
        if args.action in parlour_reports.ACTIONS:
            return parlour_reports.run(args)
        if not _TABLE.fullmatch(getattr(args, "table", "x")):
            print("xian-table parlour: a table id is 1–64 letters, digits, '-' or '_'", file=sys.stderr)
            return 2
        if args.action == "fee":
            return send_fees(args)
        with Database.open(args.db) as db:
            if args.tables_action == "add":
                return add_table(db, args)
            if args.tables_action == "retire":
                return retire_table(db, args)
            if args.tables_action in ("place", "unplace"):
                return place_table(db, args)
            return list_tables(db)
    except (OSError, RuntimeError, ValueError) as e:
        print(f"xian-table parlour: {e}", file=sys.stderr)
        return 1


def _active(db: Database) -> list[str]:
    return [t.id for t in db.tables() if t.user and not t.retired]


def add_table(db: Database, args: argparse.Namespace) -> int:
    from parlour import broker
    table = args.table
    service_password = broker.ensure_service_user(args.broker_dir)
    password = broker.add_table(args.broker_dir, table)
    db.add_table(table, broker.table_user(table))
    broker.write_acl(args.broker_dir, _active(db))
    print(f"table {table}: user {broker.table_user(table)} on the parlour broker ({args.broker_dir})")
    if service_password:
        print(f"the parlour service's own user {broker.SERVICE_USER} was made too: its password is in "
              f"{args.broker_dir / broker.SERVICE_PASSWORD}")
        if args.broker_dir == broker.DATA_DIR and os.geteuid() == 0:
            env = broker.write_service_env(service_password)
            print(f"and in {env}, which xian-table-parlour.service reads")
    if args.broker_dir == broker.DATA_DIR and os.geteuid() == 0 and broker.write_conf():
        print(f"the parlour broker's settings are in {broker.CONF_FILE} (a listener on port 1883, every "
              "address): sudo systemctl restart mosquitto")
    print(broker.reload_broker(args.broker_dir, args.broker_pid))
    if args.write_password:
        args.write_password.write_text(password + "\n", encoding="utf-8")
        os.chmod(args.write_password, 0o600)
    host = args.host or socket.getfqdn()
    print(f"password (shown once): {password}")
    print("on the table, put the password in a file only root reads, then join:")
    print("  sudo install -m 600 /dev/null /etc/xian-table/parlour.password")
    print("  sudo nano /etc/xian-table/parlour.password   # the password above, on one line")
    print(f"  sudo xian-table parlour-join {host}:{args.port} --user {broker.table_user(table)} "
          "--password-file /etc/xian-table/parlour.password")
    return 0


def retire_table(db: Database, args: argparse.Namespace) -> int:
    from parlour import broker
    if db.table(args.table) is None:
        print(f"xian-table parlour: no table {args.table} here", file=sys.stderr)
        return 1
    retired = db.retire_table(args.table)
    removed = broker.remove_user(args.broker_dir, broker.table_user(args.table))
    broker.write_acl(args.broker_dir, _active(db))
    print(f"table {args.table}: " + ("retired" if retired else "was retired already") +
          ("; its broker user is removed" if removed else "") + "; its records stay in the database")
    print(broker.reload_broker(args.broker_dir, args.broker_pid))
    return 0


def place_table(db: Database, args: argparse.Namespace) -> int:
    """``tables place T COL ROW`` / ``tables unplace T``: the floor plan (the running service
    reads it again within seconds)."""
    if args.tables_action == "unplace":
        gone = db.unplace(args.table)
        print(f"table {args.table}: " + ("off the plan (back in the grid)" if gone else "was not on the plan"))
        return 0
    if not (1 <= args.col <= 100 and 1 <= args.row <= 100):
        print("xian-table parlour: a column and a row are 1–100", file=sys.stderr)
        return 2
    if db.table(args.table) is None:
        print(f"xian-table parlour: no table {args.table} here (xian-table parlour tables add {args.table})",
              file=sys.stderr)
        return 1
    other = [t for t, place in db.floor().items() if place == (args.col, args.row) and t != args.table]
    db.place(args.table, args.col, args.row)
    print(f"table {args.table}: column {args.col}, row {args.row}" + (
        f" (shared with {', '.join(other)}: move one)" if other else ""))
    return 0


def list_tables(db: Database) -> int:
    journals = db.journals()
    print(f"{'table':<16} {'status':<8} {'last seen (UTC)':<20} {'journals':>8} {'records':>9} {'missing':>8}")
    for t in db.tables():
        mine = [j for j in journals if j.table == t.id]
        status = "retired" if t.retired else (t.status or "-")
        seen = (t.last_seen or "never")[:19].replace("T", " ")
        records = sum(j.records for j in mine)
        missing = sum(max(j.highest - j.records, 0) for j in mine)
        print(f"{t.id:<16} {status:<8} {seen:<20} {len(mine):>8} {records:>9,} {missing:>8,}")
        for j in mine:
            print(f"  journal {j.journal}  first seen {j.first_seen[:19].replace('T', ' ')}  "
                  f"records {j.records:,} of {j.highest:,}")
    return 0


def send_fees(args: argparse.Namespace) -> int:
    """``parlour fee``: the setting to each table named, then what each answered."""
    from engine.fees import FeeSetting
    from parlour.db import Database
    from parlour.fee_command import send_fee
    from table_app.mqtt.topics import PASSWORD_ENV, parse_url
    from table_app.present.fees import setting_line

    if args.none == (args.mode is not None) or (args.mode is not None) != (args.rate is not None):
        print("xian-table parlour fee: give --mode and --rate (a fee), or --none (no fee)", file=sys.stderr)
        return 2
    setting = None if args.none else FeeSetting.from_json({"mode": args.mode, "rate": args.rate, "min": args.fee_min,
                                                           "cap": args.cap, "payer": args.payer, "tea": args.tea})
    if args.table == "all":
        with Database.open(args.db) as db:
            tables = _active(db)
        if not tables:
            print("xian-table parlour fee: no tables yet (xian-table parlour tables add T)", file=sys.stderr)
            return 1
    else:
        tables = [args.table]
    broker = parse_url(args.broker, {PASSWORD_ENV: _password(args) or ""})
    answers = send_fee(broker, tables, setting, prefix=args.prefix, cafile=args.cafile, wait_s=args.wait)
    what = setting_line(None if setting is None else setting.to_json(), "en")
    for table, answer in answers.items():
        if answer is None:
            print(f"table {table}: sent ({what}); no answer in {args.wait:g} s — its link may be down: the table "
                  "gets it when the link is back")
        elif answer.get("status") == "ok":
            print(f"table {table}: {what} — its default now, and the session in play's")
        else:
            print(f"table {table}: refused: {answer.get('error')}")
    return 0 if all(a is not None and a.get("status") == "ok" for a in answers.values()) else 1


def _password(args: argparse.Namespace) -> str | None:
    from parlour.broker import DATA_DIR, SERVICE_PASSWORD

    if args.password_file:
        return Path(args.password_file).read_text(encoding="utf-8").strip()
    env = os.environ.get("XIAN_PARLOUR_MQTT_PASSWORD")
    if env:
        return env
    kept = Path(args.broker_dir or DATA_DIR) / SERVICE_PASSWORD
    return kept.read_text(encoding="utf-8").strip() if os.access(kept, os.R_OK) else None


def serve(args: argparse.Namespace) -> int:
    from parlour.service import Parlour, Settings, db_errors
    from table_app.mqtt.topics import PASSWORD_ENV, parse_url
    from table_app.system.sdnotify import Notifier

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(message)s")
    password = _password(args)
    broker = parse_url(args.broker, {PASSWORD_ENV: password or ""})
    try:
        parlour = Parlour(Settings(args.db, broker, args.client_id, args.prefix, args.cafile,
                                   ha_prefix=args.ha_prefix or None))
    except db_errors() as e:  # a server not up yet: systemd starts it again (Restart=on-failure)
        print(f"xian-table parlour: cannot open the database: {e}", file=sys.stderr)
        return 1

    def stop(signum: int, frame: object) -> None:
        logging.getLogger("xian.parlour").info("stopping (signal %d)", signum)
        parlour.stop.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    web = _floor(parlour, args) if args.http else None
    try:
        return parlour.run(Notifier.from_env())
    finally:
        if web is not None:
            web.stop()


def _floor(parlour: Parlour, args: argparse.Namespace) -> FloorServer:
    """The owner's pages (``--http``): the fold of every table, the floor, the owner's link printed."""
    from parlour.db import Database
    from parlour.floor_routes import FloorServer
    from parlour.live import Live
    from parlour.owner_site import owner_key
    from table_app.web.server import lan_address, parse_listen

    host, port = parse_listen(args.http)
    live = Live(lambda: parlour.db).load()
    parlour.on_commit, parlour.on_seen = live.committed, live.seen
    reader: list[Database] = []

    def plan() -> dict[str, tuple[int, int]]:  # (the pace-maker's thread: a connection of its own)
        if not reader:
            reader.append(Database.open(args.db, migrate=False))
        return reader[0].floor()

    web = FloorServer(live, plan, owner_key(parlour.db), (host, port)).start()
    shown = host if host not in ("", "0.0.0.0", "::") else (lan_address() or socket.getfqdn())
    print(f"the floor (the owner's key is in the link: keep it): {web.url(shown)}", flush=True)
    logging.getLogger("xian.parlour").info("the owner's pages on http://%s:%d/parlour", shown, web.port)
    return web
