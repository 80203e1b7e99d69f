"""The table's mosquitto bridged to the parlour's: the config ``xian-table parlour-join`` writes.

One conf.d file beside the table's own (``/etc/mosquitto/conf.d/xian-table.parlour.conf``,
loaded after ``xian-table.conf``: mosquitto reads conf.d in alphabetical order, and the
queue limits here replace the table's). The table's broker keeps its listeners, users and
ACL; the bridge is one more connection, out from the table, that carries the table's
topics to the parlour (``topic <prefix>/T/# out 1``) and the parlour's commands in
(``topic <prefix>/T/cmd in 1``), QoS 1, persistent sessions on both sides
(``cleansession false``, ``local_cleansession false``) and the broker's persistence on, so
what the table publishes while the parlour is away waits in the bridge's queue. mosquitto
publishes the bridge's state, retained, on ``$SYS/broker/connection/parlour-T/state`` (1 up,
0 down; ``notifications true``) on both brokers — at the parlour's also as the connection's
will, so the parlour hears a link that dies. ``doctor`` reads the table's.

The queue (docs/mqtt.md, *The parlour link*): mosquitto has one limit for every client,
``max_queued_messages`` / ``max_queued_bytes``. Measured (docs/mqtt.md, *The parlour link*),
the table sends 6.8 messages and 6.2 KB on ``xian/T/#`` per journal record; a fast table writes about one
record a second (a hand of ~190 records every 3 minutes). Two hours are then 49,000
messages and 44 MB: :data:`QUEUED_MESSAGES` and :data:`QUEUED_BYTES` hold 14,700 records
(4 h) and 10,800 records (3 h) at that pace; the bytes are reached first.

>>> parse_address("parlour.local", tls=False), parse_address("10.0.0.5:1884", tls=False)
(('parlour.local', 1883), ('10.0.0.5', 1884))
>>> parse_address("192.168.1.9", tls=True)
('192.168.1.9', 8883)
>>> parse_address("bad host!:1883", tls=False)
Traceback (most recent call last):
  ...
ValueError: 'bad host!' is not a host name or an IP address
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path

from table_app.mqtt.topics import DEFAULT_PREFIX

CONF_NAME = "xian-table.parlour.conf"  # (after xian-table.conf in conf.d's alphabetical order)
QUEUED_MESSAGES = 100_000
QUEUED_BYTES = 64 * 2**20
AUTOSAVE_S = 300  # the broker writes its persistence file this often (and at every stop)
ACL_MARK = "# the parlour link's state, for xian-table doctor (written by xian-table parlour-join)"
_HOST = re.compile(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}"
                   r"[A-Za-z0-9])?)*\.?")
_USER = re.compile(r"[A-Za-z0-9_.@-]{1,64}")


def connection_name(table: str) -> str:
    return f"parlour-{table}"


def state_topic(table: str) -> str:
    """Where mosquitto tells the bridge's state (``1`` connected, ``0`` not), retained."""
    return f"$SYS/broker/connection/{connection_name(table)}/state"


def parse_address(text: str, *, tls: bool) -> tuple[str, int]:
    """``HOST[:PORT]``: the parlour broker's host and port
    (default 1883, or 8883 with TLS). A ValueError says what is wrong."""
    host, port = text.strip(), 8883 if tls else 1883
    if host.startswith("[") or host.count(":") > 1:
        raise ValueError(f"an IPv6 address cannot be a bridge's address in this mosquitto: give the parlour's host "
                         f"name, or its IPv4 address, got {text!r}")
    host, _, given = host.partition(":") if ":" in host else (host, "", None)
    if given is not None:
        if not given.isdigit() or not 1 <= int(given) <= 65535:
            raise ValueError(f"the port must be a number from 1 to 65535, got {given!r}")
        port = int(given)
    try:
        return str(ipaddress.IPv4Address(host)), port
    except ValueError:
        pass
    if not _HOST.fullmatch(host) or host.replace(".", "").isdigit():
        raise ValueError(f"{host!r} is not a host name or an IP address")
    return host.rstrip("."), port


def check_password(password: str) -> str:
    """The password as mosquitto's config can carry it (one line, no spaces at its ends)."""
    if not password or len(password) > 256 or not password.isprintable() or password != password.strip():
        raise ValueError("the password must be 1–256 printable characters on one line, without spaces at its ends")
    return password


@dataclass(frozen=True)
class ParlourLink:
    """What one table's bridge needs."""

    table: str
    host: str
    port: int
    user: str
    password: str
    prefix: str = DEFAULT_PREFIX
    cafile: Path | None = None  # TLS: the parlour broker's CA (None: plain MQTT)

    def __post_init__(self) -> None:
        if not _USER.fullmatch(self.user):
            raise ValueError(f"the user must be 1–64 letters, digits or . _ @ -, got {self.user!r}")
        check_password(self.password)
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", self.table):
            raise ValueError(f"the table id must be 1–64 letters, digits, '-' or '_', got {self.table!r}")

    def conf_text(self, *, shown_password: str | None = None) -> str:
        """The conf.d file (``shown_password``: printed in its place, for ``--dry-run``)."""
        base = f"{self.prefix}/{self.table}"
        lines = [
            "# xian-table: this table's link to the parlour (written by `xian-table parlour-join`; run it",
            "# again to change it). docs/mqtt.md, \"The parlour link\". It holds the table's parlour password:",
            "# mode 0600, owned by the broker's user.",
            "",
            "# Every client's queue on this broker (mosquitto has one limit for all of them): the bridge's",
            "# holds what the table publishes while the parlour is away — measured 6.8 messages and 6.2 KB",
            "# a journal record; a fast table writes one record a second, so 2 hours are 49,000 messages,",
            "# 44 MB. These hold about 3 hours at that pace (the bytes are reached first); beyond them",
            "# mosquitto drops the newest, and the parlour asks the table for what it missed.",
            f"max_queued_messages {QUEUED_MESSAGES}",
            f"max_queued_bytes {QUEUED_BYTES}",
            "# The queue and the sessions outlive a restart of this broker.",
            "persistence true",
            f"autosave_interval {AUTOSAVE_S}",
            "",
            f"connection {connection_name(self.table)}",
            f"address {self.host}:{self.port}",
            f"remote_clientid {connection_name(self.table)}",
            f"remote_username {self.user}",
            f"remote_password {shown_password if shown_password is not None else self.password}",
            "cleansession false",
            "local_cleansession false",
            "notifications true",
            f"notification_topic {state_topic(self.table)}",
            "bridge_protocol_version mqttv311",
            "try_private true",
            "keepalive_interval 30",
            "restart_timeout 2 8",  # (tried again within 8 s of a link's return: catch-up < 10 s)
            f"topic {base}/# out 1",
            f"topic {base}/cmd in 1",
        ]
        if self.cafile is not None:
            lines += [f"bridge_cafile {self.cafile}", "bridge_insecure false", "bridge_tls_version tlsv1.2"]
        return "\n".join(lines) + "\n"


def acl_addition(service_user: str) -> str:
    """What the table broker's ACL gains: its service user may read the bridges' states."""
    return f"\n{ACL_MARK}\nuser {service_user}\ntopic read $SYS/broker/connection/+/state\n"
