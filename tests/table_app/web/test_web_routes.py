"""The route table is the only place the web server's paths are declared: every row answers its
methods, OPTIONS lists exactly the table's methods for a path and anything else there gets 405
with the same list; a path outside the table is read-only as it always was; and the HTTP
mechanics, given another table, answer that table and nothing else. Real sockets, a real
:class:`SeatPages` on a real service."""

from __future__ import annotations

import http.client
import json
import re
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from table_app.core.service import TableService
from table_app.http_kit.server import Limits, Reply, Request, Route, Router, Server
from table_app.web.live import LiveTable
from table_app.web.routes import ROUTES
from table_app.web.server import SeatPages
from tests.support.mqtt import WAIT, service_fixture  # noqa: F401  (a fixture)

ANSWERED = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH")  # (OPTIONS apart; others get http.server's 501)
# One path for each row of the table (a new row needs one here: the first test says so).
EXAMPLES = {
    r"/": "/",
    r"/seat/([0-3])/?": "/seat/2",
    r"/seat/([0-3])\.json/?": "/seat/2.json",
    r"/seat/([0-3])/events/?": "/seat/2/events",
    r"/table": "/table",
    r"/table\.json": "/table.json?lang=en",
    r"/table/events": "/table/events",
    r"/table/join\.json": "/table/join.json",
    r"/table/code/*": "/table/code",
    r"/table/phones\.json": "/table/phones.json",
    r"/history/sessions\.json": "/history/sessions.json?lang=en",
    r"/history/(\d{1,9})\.json": "/history/1.json?page=x",  # (a bad page: 400 before the archive is asked)
    r"/history/(\d{1,9})/(\d{1,9})\.json": "/history/1/2.json?step=x",
    r"/history/records\.json": "/history/records.json?period=week",
    r"/history/player/(\d{1,9})\.json": "/history/player/1.json?period=year",
    r"/join/([^/]+)/*": "/join/{token}",
    r"/join/([^/]*)/seats\.json/*": "/join/{token}/seats.json",
    r"/join/([^/]+)/ask/*": "/join/{token}/ask",
    r"/phone/([^/]+)/*": "/phone/1",
    r"/phone/([0-3])/events": "/phone/1/events",
    r"/phone/([0-3])/history\.json": "/phone/1/history.json",
    r"/phone/([0-3])/listed/*": "/phone/1/listed",
    r"/phone/([0-3])/press/*": "/phone/1/press",
    r"/phone/([0-3])/table/*": "/phone/1/table",
    r"/phone/([0-3])/pick/*": "/phone/1/pick",
    r"/phone/([0-3])/leave/*": "/phone/1/leave",
    r"/phone/([0-3])/takeover/*": "/phone/1/takeover",
}


@pytest.fixture
def pages(service: TableService) -> Iterator[SeatPages]:
    p = SeatPages(service, "127.0.0.1", 0, table="t-routes").start()
    yield p
    p.stop()


def ask(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection; a stream's answer is its status and headers only."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=body, headers=headers)
    r = conn.getresponse()
    heads = {k.lower(): v for k, v in r.getheaders()}
    content = b"" if heads.get("content-type", "").startswith("text/event-stream") else r.read()
    conn.close()
    return r.status, heads, content


def table_methods(path: str) -> str:
    """What the table says ``path`` takes, as ``Allow`` lists it (read here from ROUTES itself)."""
    taken: set[str] = {route.method for route in ROUTES if re.fullmatch(route.path, path.split("?")[0])}
    if "GET" in taken:
        taken.add("HEAD")
    return ", ".join(m for m in ("GET", "HEAD", "POST", "OPTIONS") if m in taken or m == "OPTIONS")


def test_every_route_answers_its_methods_and_only_those(pages: SeatPages) -> None:
    assert set(EXAMPLES) == {route.path for route in ROUTES}, "a row of ROUTES without an example here"
    token = urlsplit(pages.join_url).path.split("/")[2]
    for example in EXAMPLES.values():
        path = example.format(token=token)
        bare = path.split("?")[0]
        for method in ("GET", "POST"):  # no path is two rows of one method
            assert sum(1 for r in ROUTES if r.method == method and re.fullmatch(r.path, bare)) <= 1, (method, path)
        allow = table_methods(path)
        status, heads, content = ask(pages.port, "OPTIONS", path)
        assert (status, heads["allow"], content) == (204, allow, b""), path
        for method in ANSWERED:
            status, heads, content = ask(pages.port, method, path, None if method in ("GET", "HEAD") else b"{}")
            if method in allow.split(", "):
                assert status not in (404, 405, 501), (method, path, status, content)
            else:
                assert (status, heads["allow"]) == (405, allow), (method, path, status)
    assert table_methods("/phone/1/press") == "POST, OPTIONS"
    assert table_methods(f"/join/{token}") == "GET, HEAD, POST, OPTIONS"  # the join page, and joining
    assert table_methods("/seat/2") == "GET, HEAD, OPTIONS"


@pytest.mark.parametrize("path", ["/nothing", "/seat/4", "/seat/0//", "/table/", "/phone/9/events",
                                  "/phone/0/events/", "/join/", "/join/token/other", "/index.html"])
def test_a_path_outside_the_table_is_read_only_as_before(pages: SeatPages, path: str) -> None:
    status, heads, content = ask(pages.port, "OPTIONS", path)
    assert (status, heads["allow"]) == (204, "GET, HEAD, OPTIONS")
    assert ask(pages.port, "GET", path)[::2] == (404, b"not found\n")
    assert ask(pages.port, "HEAD", path)[::2] == (404, b"")
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        status, heads, content = ask(pages.port, method, path, b"{}")
        assert (status, heads["allow"]) == (405, "GET, HEAD, OPTIONS")
        assert content == b"read-only: GET, HEAD or OPTIONS only\n"
    assert ask(pages.port, "TRACE", path)[0] == 501  # http.server's own answer to a method it has no do_ for


def hello(site: str, request: Request) -> Reply:
    return Reply(200, "text/plain", f"{site} {request.args[0]}".encode())


def echo(site: str, request: Request) -> Reply:
    return Reply(201, "application/json", json.dumps({"args": request.args, "body": request.body.decode()}).encode())


def test_the_server_answers_the_table_it_is_given_and_no_other(service: TableService) -> None:
    """The mechanics carry no route of their own: with a table of two rows, the seat pages'
    paths are unknown there, and OPTIONS and 405 follow the two rows."""
    toy = (Route("GET", r"/hello/(\w+)", hello, "a greeting"), Route("POST", r"/echo/(\d)", echo, "an echo"))
    server = Server(("127.0.0.1", 0), Router(toy, "hi"), LiveTable(service),
                    Limits(request_timeout_s=WAIT, write_timeout_s=WAIT, requests=4))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        assert ask(port, "GET", "/hello/you")[::2] == (200, b"hi you")
        assert ask(port, "HEAD", "/hello/you")[::2] == (200, b"")
        status, _, content = ask(port, "POST", "/echo/7", b'{"x": 1}')
        assert (status, json.loads(content)) == (201, {"args": ["7"], "body": '{"x": 1}'})
        assert ask(port, "OPTIONS", "/hello/you")[1]["allow"] == "GET, HEAD, OPTIONS"
        assert ask(port, "OPTIONS", "/echo/7")[1]["allow"] == "POST, OPTIONS"
        status, heads, content = ask(port, "GET", "/echo/7")
        assert (status, heads["allow"], content) == (405, "POST, OPTIONS", b"POST or OPTIONS only\n")
        assert ask(port, "POST", "/hello/you", b"{}")[1]["allow"] == "GET, HEAD, OPTIONS"
        for path in ("/", "/seat/0", "/table", "/echo/x"):
            assert ask(port, "GET", path)[0] == 404, path
    finally:
        server.shutdown()
        thread.join(WAIT)
        server.server_close()
