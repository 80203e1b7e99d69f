"""The MQTT link as the table tells it: its state in words for ``serve`` and the touchscreen's
Settings, and whether paho's network thread still runs."""

from __future__ import annotations

import logging
import time

import paho.mqtt.client as mqtt

from table_app.mqtt.messages import Outgoing
from table_app.mqtt.topics import BrokerURL, Topics

log = logging.getLogger(__name__)


def link_state(link: str, url: BrokerURL, topics: Topics) -> tuple[str, str]:
    """The bridge's connection (``up``, ``connecting``, ``refused``, else down) as the link
    state every part tells (``online``, ``connecting``, ``denied``, ``offline``) and a detail line."""
    where = url.redacted()
    return {
        "up": ("online", f"{where} under {topics.base}/"),
        "connecting": ("connecting", where),
        "refused": ("denied", f"the broker at {where} refused the connection (user or password)"),
    }.get(link, ("offline", f"{where} does not answer; the table plays on and publishes when it is back"))


def network_alive(client: mqtt.Client) -> bool:
    """Whether paho's network thread (``loop_start``) still runs."""
    thread = getattr(client, "_thread", None)
    return thread is None or thread.is_alive()


def say_offline(client: mqtt.Client, msg: Outgoing, deadline: float) -> None:
    """A clean disconnect sends no will: say ``offline`` (``msg``) ourselves and wait for the
    broker's acknowledgement until ``deadline`` (``time.monotonic()``, at least 0.1 s)."""
    try:
        info = client.publish(msg.topic, msg.payload, qos=msg.qos, retain=True)
        info.wait_for_publish(max(0.1, deadline - time.monotonic()))
    except (RuntimeError, ValueError) as e:
        log.warning("mqtt: could not publish offline: %s", e)
