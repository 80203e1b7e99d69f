"""Every MQTT topic the table uses, in one place (docs/design.md, MQTT).

>>> t = Topics("xian", "t1")
>>> t.state, t.seat(2), t.cmd_result
('xian/t1/state', 'xian/t1/seat/2', 'xian/t1/cmd/result')
>>> parse_url("mqtt://display:s3cret@pi.local:1884")
BrokerURL(host='pi.local', port=1884, username='display', password='s3cret', tls=False)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

DEFAULT_PREFIX = "xian"
STATUS = "status"
STATE = "state"
SEAT = "seat"
SEAT_NAME = "name"  # seat/<n>/name: the player's name as bitmaps (table_app/mqtt/names.py)
EVENT = "event"
CMD = "cmd"
CMD_RESULT = "cmd/result"
JOURNAL = "journal"  # every journal record, as committed (the parlour link: table_app/mqtt/journal_link.py)
JOURNAL_REPLAY = "journal/replay"  # the answers to journal_replay commands

ONLINE = "online"
OFFLINE = "offline"

HA_PREFIX = "homeassistant"  # Home Assistant's discovery prefix
HA_STATUS = "status"  # Home Assistant announces itself on <ha prefix>/status
HA_ONLINE = "online"

QOS = 1
PASSWORD_ENV = "XIAN_TABLE_MQTT_PASSWORD"  # used when the URL names a user but no password


@dataclass(frozen=True)
class Topics:
    """The topics of one table: ``<prefix>/<table>/...``."""

    prefix: str
    table: str

    @property
    def base(self) -> str:
        return f"{self.prefix}/{self.table}"

    @property
    def status(self) -> str:
        return f"{self.base}/{STATUS}"

    @property
    def state(self) -> str:
        return f"{self.base}/{STATE}"

    def seat(self, n: int) -> str:
        return f"{self.base}/{SEAT}/{n}"

    def seat_name(self, n: int) -> str:
        return f"{self.base}/{SEAT}/{n}/{SEAT_NAME}"

    @property
    def seats(self) -> str:
        """The filter matching every seat view."""
        return f"{self.base}/{SEAT}/+"

    @property
    def event(self) -> str:
        return f"{self.base}/{EVENT}"

    @property
    def cmd(self) -> str:
        return f"{self.base}/{CMD}"

    @property
    def cmd_result(self) -> str:
        return f"{self.base}/{CMD_RESULT}"

    @property
    def journal(self) -> str:
        return f"{self.base}/{JOURNAL}"

    @property
    def journal_replay(self) -> str:
        return f"{self.base}/{JOURNAL_REPLAY}"


@dataclass(frozen=True)
class BrokerURL:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False

    def redacted(self) -> str:
        """The URL without its password, for logs."""
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"


def parse_url(url: str, env: dict[str, str] | None = None) -> BrokerURL:
    """``mqtt://[USER[:PASS]@]HOST[:PORT]`` (or ``mqtts://``); the password may come from
    ``$XIAN_TABLE_MQTT_PASSWORD`` instead, so it need not show in ``ps``."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"a broker URL must start with mqtt:// or mqtts://, got {url!r}")
    if not parts.hostname:
        raise ValueError(f"a broker URL needs a host: {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"a broker URL has no path or query: {url!r}")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad port in broker URL {url!r}") from None
    tls = parts.scheme == "mqtts"
    username = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    if username and password is None:
        password = (os.environ if env is None else env).get(PASSWORD_ENV) or None
    return BrokerURL(parts.hostname, port or (8883 if tls else 1883), username, password, tls)


def node_id(prefix: str, table: str) -> str:
    """A Home Assistant node id for a table (letters, digits, '_' and '-' only)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"{prefix}_{table}")
