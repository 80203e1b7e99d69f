"""The parlour link: is the table's broker bridged to the parlour's, and is the bridge up.

mosquitto tells a bridge's state on the table's own broker, retained, on
``$SYS/broker/connection/parlour-T/state`` (``1`` connected, ``0`` not:
``notifications true`` in ``xian-table.parlour.conf``); the check reads it with the table's
login (``xian-table parlour-join`` lets that login read it).
"""

from __future__ import annotations

import re
import threading

from table_app.doctor.broker import _broker_login
from table_app.doctor.check import OK, WARNING, Check, Probe, read_text

CONF = "etc/mosquitto/conf.d/xian-table.parlour.conf"


def bridge_state(host: str, port: int, user: str | None, password: str | None, topic: str,
                 timeout: float) -> str | None:
    """The retained state mosquitto keeps on ``topic`` (``"1"``, ``"0"``), or None when none came."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    got: list[str] = []
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="", protocol=mqtt.MQTTv311)
    if user:
        client.username_pw_set(user, password)
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=0)
    client.on_subscribe = lambda *_: threading.Timer(0.5, done.set).start()  # (a retained state comes first)

    def on_message(c: object, userdata: object, msg: mqtt.MQTTMessage) -> None:
        got.append(msg.payload.decode("utf-8", "replace").strip())
        done.set()

    client.on_message = on_message
    try:
        client.connect(host, port, keepalive=10)
    except OSError:
        return None
    client.loop_start()
    try:
        done.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    return got[-1] if got else None


def check_parlour(probe: Probe, url: str = "mqtt://localhost:1883") -> Check:
    path = probe.path(CONF)
    if not path.exists():
        return Check("parlour", OK, "not linked to a parlour (xian-table parlour-join links it)")
    conf = read_text(path)
    if not conf:
        return Check("parlour", WARNING, f"cannot read /{CONF} (it holds the parlour password: root's)",
                     "sudo xian-table doctor")
    name = re.search(r"^connection\s+(\S+)\s*$", conf, re.M)
    address = re.search(r"^address\s+(\S+)\s*$", conf, re.M)
    if name is None or address is None:
        return Check("parlour", WARNING, f"/{CONF} names no bridge (no connection or address line)",
                     "sudo xian-table parlour-join HOST --password-file F writes it again")
    where = f"the parlour at {address[1]}"
    host, port, user, password = _broker_login(probe, url)
    state = bridge_state(host, port, user, password, f"$SYS/broker/connection/{name[1]}/state", probe.timeout_s)
    if state == "1":
        return Check("parlour", OK, f"linked to {where} (bridge {name[1]} connected)")
    if state == "0":
        return Check("parlour", WARNING,
                     f"the link to {where} is down: the table plays on and keeps every record; the broker queues "
                     "what it publishes, and the parlour asks the table for the rest when the link is back",
                     f"check the network to {address[1]} and the parlour's broker; journalctl -u mosquitto")
    return Check("parlour", WARNING, f"the table's broker tells no state for its bridge to {where}",
                 "sudo systemctl restart mosquitto (a bridge starts with the broker); sudo xian-table doctor "
                 "(the table's login reads the state)")
