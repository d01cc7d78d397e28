"""A headless Chromium driven over the DevTools protocol, standard library only: `--remote-debugging-pipe` (the
browser reads commands on fd 3 and writes replies and events on fd 4, each message JSON ended by a NUL byte), so no
port, no WebSocket and no third-party client. Enough for the preview's interaction tests: open a page, evaluate
script, move and click the mouse, take a screenshot.
"""

import base64
import json
import os
import select
import subprocess
import time

import png


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self, binary, profile, width=1200, height=1400):
        commands_read, self._commands = os.pipe()
        self._events, events_write = os.pipe()
        # The browser expects the pipe at fds 3 and 4; move both ends out of the way first so dup2 cannot clobber one.
        low = [commands_read, events_write]
        high = [os.dup2(fd, 100 + i) for i, fd in enumerate(low)]
        for fd in low:
            os.close(fd)

        def child_fds():
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [
                binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--force-device-scale-factor=1", "--remote-debugging-pipe", "--user-data-dir=" + profile,
                f"--window-size={width},{height}", "about:blank",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child_fds, close_fds=False,
        )
        for fd in high:
            os.close(fd)
        self._buffer = b""
        self._next = 0
        self._events_seen = []
        self.session = None
        self.width, self.height = width, height
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        if page is None:
            page = {"targetId": self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]}
        self.session = self.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._commands, self._events):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._events], [], [], left)[0]:
                raise BrowserError("no reply from the browser in time")
            chunk = os.read(self._events, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=True, timeout=60):
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._events_seen.append(reply)

    def wait_event(self, method, timeout=60):
        for index, event in enumerate(self._events_seen):
            if event.get("method") == method:
                return self._events_seen.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method:
                return event
            self._events_seen.append(event)

    def open(self, url):
        """Loads the page afresh (through about:blank: a new fragment alone would not reload it) and waits for its
        load event; raises on a script error in the page."""
        for target in ("about:blank", url):
            self._events_seen = [e for e in self._events_seen
                                 if e.get("method") not in ("Page.loadEventFired", "Runtime.exceptionThrown")]
            self.send("Page.navigate", {"url": target})
            self.wait_event("Page.loadEventFired")
        errors = [e for e in self._events_seen if e.get("method") == "Runtime.exceptionThrown"]
        if errors:
            raise BrowserError("script error in the page: " + json.dumps(errors[0]["params"]["exceptionDetails"])[:2000])

    def evaluate(self, expression, await_promise=False):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise})
        if "exceptionDetails" in result:
            raise BrowserError("evaluate: " + json.dumps(result["exceptionDetails"])[:2000])
        return result["result"].get("value")

    def rect(self, selector):
        """The element's getBoundingClientRect as (left, top, right, bottom), or None."""
        return self.evaluate(
            "(function () { const el = document.querySelector(%s); if (!el) return null;"
            " const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()"
            % json.dumps(selector))

    def mouse(self, kind, x, y, button="none", clicks=0):
        self.send("Input.dispatchMouseEvent",
                  {"type": kind, "x": x, "y": y, "button": button, "clickCount": clicks})

    def click(self, x, y):
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y, "left", 1)
        self.mouse("mouseReleased", x, y, "left", 1)

    def screenshot(self):
        # Two animation frames first, so that what the last script call changed is painted.
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", await_promise=True)
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        return png.decode(base64.b64decode(data))
