"""Headless Debian Chromium driven through the DevTools protocol on a pipe
(``--remote-debugging-pipe``): pages in their own browser contexts (each with its own cookie
jar, like separate phones), JavaScript, clicks, typing, screenshots and the page's own
metrics. Nothing mocked: the pages talk to a real web server. (The browser tests' driver,
tests/table_app/chromium.py, and the floor's benchmark share it.)"""

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


class Chromium:
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
        page = Page(self, session)
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

    def click(self, selector: str) -> None:
        """A real click at the element's centre (the mouse events a finger's tap makes)."""
        self.tap(f"document.querySelector({json.dumps(selector)})", f"{selector} there and enabled")

    def tap(self, element: str, what: str) -> None:
        """A real click at the centre of the element the JavaScript expression ``element`` gives,
        once it is there and enabled: found, scrolled to and measured in one step (a live update
        may draw the page again between two steps)."""
        box = self.wait(f"(() => {{ const e = {element};"
                        " if (!e || e.disabled) return null; e.scrollIntoView({block: 'center'});"
                        " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()",
                        what)
        assert isinstance(box, list)
        for kind in ("mousePressed", "mouseReleased"):
            self.browser.send("Input.dispatchMouseEvent", self.session, type=kind, x=box[0], y=box[1],
                              button="left", clickCount=1)

    def type(self, selector: str, text: str) -> None:
        """Focus a field and type ``text`` as a phone's keyboard would (any script)."""
        self.js(f"document.querySelector({json.dumps(selector)}).focus()")
        self.browser.send("Input.insertText", self.session, text=text)

    def screenshot(self, path: Path) -> Path:
        data = self.browser.send("Page.captureScreenshot", self.session, format="png")["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(str(data)))
        return path
