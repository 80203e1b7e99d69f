"""The browser the floor's benchmark needs (``xian-table bench --only floor``): headless Debian
Chromium (``apt install chromium``) driven through the DevTools protocol on a pipe
(``--remote-debugging-pipe``): pages in browser contexts of their own (each with its own cookie
jar), JavaScript, waiting for what a page shows, screenshots and the page's own metrics.
Nothing mocked: the pages talk to a real web server.

The browser tests drive the same browser with a finger (``tests/support/chromium.py``: clicks,
taps and typing on a :class:`Page` of their own, through :attr:`Chromium.page_class`)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import subprocess
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
WAIT = 45.0  # a hang guard, not a timing check: generous, for a loaded 2-core CI machine


class Page:
    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser, self.session = browser, session

    def go(self, url: str) -> None:
        self.browser.send("Page.navigate", self.session, url=url)
        self.wait("document.readyState === 'complete' && location.href !== 'about:blank'", "the page loaded")

    def js(self, expression: str) -> object:
        """The value of ``expression`` in the page (a promise awaited), as JSON decodes it."""
        result = self.browser.send("Runtime.evaluate", self.session, expression=expression, returnByValue=True,
                                   awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression!r} failed: {result['exceptionDetails']}")
        value = result["result"]
        assert isinstance(value, dict), result
        return value.get("value")

    def wait(self, expression: str, what: str, timeout: float = WAIT) -> object:
        """Until ``expression`` is truthy in the page (a hang guard, not a timing check)."""
        end = time.monotonic() + timeout
        while True:
            with contextlib.suppress(AssertionError):
                value = self.js(expression)
                if value:
                    return value
            if time.monotonic() > end:
                raise AssertionError(f"the page never showed {what} ({expression!r})")
            time.sleep(0.05)

    def screenshot(self, path: Path) -> Path:
        data = self.browser.send("Page.captureScreenshot", self.session, format="png")["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(str(data)))
        return path


class Chromium:
    page_class: type[Page] = Page  # the pages it opens (the tests' own adds a finger)

    def __init__(self, profile: Path) -> None:
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def wire() -> None:  # in the child: the pipe ends become fds 3 and 4
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
             "--disable-quic", f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next = 0
        self._answers: dict[int, dict[str, object]] = {}
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buf = b""
        while chunk := os.read(self._from_chrome, 65536):
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self._cond:
                        self._answers[msg["id"]] = msg
                        self._cond.notify_all()

    def send(self, method: str, session: str | None = None, **params: object) -> dict[str, object]:
        """One DevTools command and its answer's ``result`` (a failed command: AssertionError)."""
        with self._cond:
            self._next += 1
            n = self._next
        msg: dict[str, object] = {"id": n, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        with self._cond:
            assert self._cond.wait_for(lambda: n in self._answers, WAIT * 2), f"no answer to {method}"
            answer = self._answers.pop(n)
        assert "error" not in answer, answer
        result = answer["result"]
        assert isinstance(result, dict), answer
        return result

    def page(self, url: str, *, own_cookies: bool = True, width: int = 390, height: int = 844,
             mobile: bool = True) -> Page:
        """A new page (in a browser context of its own: its own cookies) showing ``url``."""
        params: dict[str, object] = {"url": "about:blank"}
        if own_cookies:
            params["browserContextId"] = self.send("Target.createBrowserContext")["browserContextId"]
        target = self.send("Target.createTarget", None, **params)["targetId"]
        session = str(self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"])
        page = self.page_class(self, session)
        self.send("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                  deviceScaleFactor=2 if mobile else 1, mobile=mobile)
        self.send("Page.enable", session)
        page.go(url)
        return page

    def close(self) -> None:
        with contextlib.suppress(AssertionError, OSError):
            self.send("Browser.close")
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
