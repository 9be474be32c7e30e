"""A small client of the Chrome DevTools Protocol over ``--remote-debugging-pipe`` (stdlib only).

Headless Chromium reads JSON commands, each ended by a NUL byte, on file descriptor 3 and
writes answers and events on file descriptor 4. :class:`Chromium` starts the browser with those
two pipes, opens one page and drives it: navigate, evaluate JavaScript (awaiting promises),
type text, emulate an offline network, and record every request the page makes.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
import time
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe")


class Chromium:
    """One headless Chromium with one page (default flags otherwise: no file-access switches)."""

    def __init__(self, executable: str, *flags: str, window: str = "1280,1600") -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="companion-chromium-")
        cmd_read, self._cmd = os.pipe()
        self._res, res_write = os.pipe()

        def pipes_on_3_and_4() -> None:  # in the child, before exec
            a, b = os.dup(cmd_read), os.dup(res_write)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile.name}", f"--window-size={window}", *flags,
             "about:blank"],
            preexec_fn=pipes_on_3_and_4, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_read)
        os.close(res_write)
        self._buffer = b""
        self._id = 0
        self.events: list[dict] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network"):
            self.page(f"{domain}.enable")

    # -- the protocol --------------------------------------------------------------------------
    def send(self, method: str, params: dict | None = None, *, session: str | None = None,
             timeout: float = 120.0) -> dict:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._cmd, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._next(deadline)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def page(self, method: str, params: dict | None = None, **kw) -> dict:
        return self.send(method, params, session=self.session, **kw)

    def _next(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._res], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._res, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the debugging pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    # -- what the tests do ---------------------------------------------------------------------
    def offline(self) -> None:
        """Emulate a disconnected network for the page (file:// and loopback loads stay possible
        only where the browser does not route them through the network stack)."""
        self.page("Network.emulateNetworkConditions",
                  {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def navigate(self, url: str, timeout: float = 60.0) -> None:
        self.events.clear()
        self.page("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'", timeout)

    def evaluate(self, expression: str, timeout: float = 120.0) -> Any:
        """The value of a JavaScript expression (a promise is awaited); a thrown error raises."""
        result = self.page("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise RuntimeError(f"JavaScript error: {text}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 60.0) -> Any:
        """Poll ``expression`` until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression, timeout=timeout)
            except RuntimeError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {timeout:.0f} s: {expression}")
            time.sleep(0.05)

    def type_text(self, text: str) -> None:
        """Type ``text`` into the focused element as a keyboard would insert it."""
        self.page("Input.insertText", {"text": text})

    def requested_urls(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def failed_requests(self) -> list[str]:
        ids = {e["params"]["requestId"]: e["params"]["request"]["url"] for e in self.events
               if e.get("method") == "Network.requestWillBeSent"}
        return [ids.get(e["params"]["requestId"], "?") + ": " + e["params"].get("errorText", "")
                for e in self.events if e.get("method") == "Network.loadingFailed"]

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._cmd)
        os.close(self._res)
        self.profile.cleanup()

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def time_panel(executable: str, page_url: str, model: str, sentences: list[str], mode: str = "greedy") -> dict:
    """Time a panel page in headless Chromium (offline): seconds until its model is loaded, and
    milliseconds of the first and of each later translation as the page measures them
    (``performance.now`` around the decoding, tokenization included). For the bench."""
    with Chromium(executable) as c:
        c.offline()
        start = time.perf_counter()
        c.navigate(page_url)
        c.evaluate(f"CompanionPanel.load({json.dumps(model)})", timeout=300)
        loaded = time.perf_counter() - start
        ms = c.evaluate(f"""(async () => {{ const out = [];
            for (const s of {json.dumps(sentences)}) {{
              const r = await CompanionPanel.translate({json.dumps(model)}, s, {json.dumps(mode)});
              if (r.error) throw new Error(r.error);
              out.push(r.ms);
            }}
            return out; }})()""", timeout=600)
    return {"load_s": loaded, "first_ms": ms[0], "per_sentence_ms": sum(ms[1:]) / max(1, len(ms) - 1),
            "sentences": len(ms), "mode": mode}
