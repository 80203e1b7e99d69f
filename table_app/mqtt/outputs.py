"""Attach the service's published outputs for ``xian-table serve``: the MQTT bridge (when a
broker is set) and the phone page (when ``web.listen`` or ``--web`` is set)."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

from table_app.mqtt.topics import Topics, parse_url

log = logging.getLogger(__name__)


def attach(service: Any, cfg: Any, *, mqtt_url: str | None = None, table: str | None = None,
           web_listen: str | None = None, out: TextIO = sys.stderr) -> Callable[[], None]:
    """Start what is configured; returns the function that stops it all again.

    Command-line values win over the config file's. Errors in a URL raise ValueError."""
    stops: list[Callable[[], None]] = []
    if table is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", table):
        raise ValueError(f"--table must be 1–64 letters, digits, '-' or '_' (an MQTT topic level), got {table!r}")
    table_id = table or cfg.table_id
    url_text = mqtt_url if mqtt_url is not None else cfg.mqtt_url
    if url_text:
        from table_app.mqtt.bridge import MqttBridge

        url = parse_url(url_text)
        bridge = MqttBridge(service, url, Topics(cfg.mqtt_prefix, table_id),
                            ha_prefix=cfg.mqtt_discovery_prefix or None).start()
        stops.append(bridge.stop)
        print(f"xian-table serve: MQTT to {url.redacted()} under {cfg.mqtt_prefix}/{table_id}/", file=out,
              flush=True)
    else:
        print("xian-table serve: no MQTT broker set (mqtt.url or --mqtt): the table runs without MQTT",
              file=out, flush=True)
    listen = web_listen if web_listen is not None else cfg.web_listen
    if listen:
        from table_app.web.server import SeatPages, parse_listen

        host, port = parse_listen(listen)
        pages = SeatPages(service, host, port, table=table_id).start()
        stops.append(pages.stop)
        print(f"xian-table serve: seat pages for phones at {pages.url}", file=out, flush=True)

    def stop() -> None:
        for fn in reversed(stops):
            try:
                fn()
            except Exception:
                log.exception("stopping %r failed", fn)

    return stop
