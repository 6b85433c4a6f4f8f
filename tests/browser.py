"""A small headless-Chromium driver over the DevTools protocol, standard library only.

Launches ``chromium --headless=new --remote-debugging-port=0`` with a throw-away profile,
reads the port from ``DevToolsActivePort``, opens the page target's websocket (HTTP upgrade,
RFC 6455 framing written out here) and offers what the report tests need: navigate,
evaluate JavaScript, click and wait for the next page, choose files in a file input, press
keys, take screenshots, and the console errors seen so far.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from typing import List, Optional

__all__ = ["find_chromium", "Browser", "BrowserError"]

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class BrowserError(RuntimeError):
    pass


def find_chromium() -> Optional[str]:
    """The Chromium executable (``$CONLL_EVAL_CHROMIUM`` first), or None."""
    wanted = os.environ.get("CONLL_EVAL_CHROMIUM")
    if wanted:
        return shutil.which(wanted) or (wanted if os.path.isfile(wanted) else None)
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


class _WebSocket:
    """A client websocket: text frames, masked as RFC 6455 requires; pings answered."""

    def __init__(self, host: str, port: int, path: str, timeout: float):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode("ascii"))
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise BrowserError("websocket handshake: connection closed")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise BrowserError(f"websocket handshake refused: {head[:200]!r}")

    def _exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buffer)))
            if not chunk:
                raise BrowserError("websocket closed by the browser")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n < 4096 else \
            _xor(payload, mask)
        self.sock.sendall(header + mask + masked)

    def send(self, text: str) -> None:
        self._frame(0x1, text.encode("utf-8"))

    def receive(self) -> str:
        parts: List[bytes] = []
        while True:
            first, second = self._exact(2)
            opcode, fin = first & 0x0F, first & 0x80
            n = second & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._exact(8))[0]
            mask = self._exact(4) if second & 0x80 else None
            payload = self._exact(n)
            if mask:
                payload = _xor(payload, mask)
            if opcode == 0x9:  # ping
                self._frame(0xA, payload)
                continue
            if opcode == 0x8:
                raise BrowserError("websocket closed by the browser")
            if opcode in (0x0, 0x1, 0x2):
                parts.append(payload)
                if fin:
                    return b"".join(parts).decode("utf-8")

    def close(self) -> None:
        try:
            self._frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


def _xor(data: bytes, mask: bytes) -> bytes:
    """``data`` XOR the repeated 4-byte ``mask``, through big integers (fast for megabytes)."""
    n = len(data)
    repeated = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(repeated, "little")).to_bytes(n, "little")


class Browser:
    """One headless Chromium with one page; use as a context manager."""

    def __init__(self, executable: str, width: int = 1400, height: int = 1000,
                 timeout: float = 60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="conll_eval-chromium-")
        args = [executable, "--headless=new", "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-gpu", "--disable-extensions", "--disable-background-networking",
                "--disable-sync", "--disable-component-update", "--mute-audio",
                "--disable-dev-shm-usage", f"--window-size={width},{height}", "about:blank"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.events: List[dict] = []
        self._id = 0
        try:
            port = self._port()
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list",
                                                       timeout=timeout))
            page = next(t for t in targets if t.get("type") == "page")
            path = page["webSocketDebuggerUrl"].split(str(port), 1)[1]
            self.ws = _WebSocket("127.0.0.1", port, path, timeout)
            for domain in ("Page", "Runtime", "Log"):
                self.call(f"{domain}.enable")
            self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                      deviceScaleFactor=1, mobile=False)
            # a headless page never has the window's focus: without this no focus event fires
            self.call("Emulation.setFocusEmulationEnabled", enabled=True)
        except BaseException:
            self.close()
            raise

    def _port(self) -> int:
        marker = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode("utf-8", "replace")[-2000:]
                raise BrowserError(f"chromium exited with {self.process.returncode}: {err}")
            try:
                with open(marker, encoding="ascii") as handle:
                    first = handle.readline().strip()
                if first:
                    return int(first)
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        raise BrowserError("chromium did not open its DevTools port")

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        ws = getattr(self, "ws", None)
        if ws is not None:
            ws.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self.process.stderr:
            self.process.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    # ---- protocol ----------------------------------------------------------------------
    def call(self, method: str, **params) -> dict:
        """Send one command and wait for its result (events meanwhile go to ``events``)."""
        self._id += 1
        ident = self._id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = json.loads(self.ws.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)
        raise BrowserError(f"{method}: no answer in {self.timeout} s")

    def wait_event(self, method: str, after: int = 0) -> dict:
        """The first ``method`` event at index ``after`` or later of ``events``, waiting."""
        deadline = time.monotonic() + self.timeout
        while True:
            for event in self.events[after:]:
                if event["method"] == method:
                    return event
            if time.monotonic() > deadline:
                raise BrowserError(f"no {method} event in {self.timeout} s")
            message = json.loads(self.ws.receive())
            if "method" in message:
                self.events.append(message)

    def navigate(self, url: str) -> None:
        """Open ``url`` and wait for its load event."""
        mark = len(self.events)
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", mark)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression (promises awaited); a thrown error raises."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"JavaScript error: {text}")
        return result["result"].get("value")

    def click_and_wait(self, selector: str) -> None:
        """Click the element ``selector`` finds (a form's button, a link) and wait for the page
        it leads to to load."""
        mark = len(self.events)
        self.evaluate(f"document.querySelector({json.dumps(selector)}).click()")
        self.wait_event("Page.loadEventFired", mark)

    def set_files(self, selector: str, paths: List[str]) -> None:
        """Choose ``paths`` in the file input ``selector`` finds, as a user picking them would
        (``DOM.setFileInputFiles``)."""
        root = self.call("DOM.getDocument", depth=0)["root"]["nodeId"]
        node = self.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        if not node:
            raise BrowserError(f"no element matches {selector!r}")
        self.call("DOM.setFileInputFiles", files=[os.path.abspath(path) for path in paths], nodeId=node)

    def key(self, key: str) -> None:
        """Press and release one key (``ArrowDown``, ``j``, ``/``, ``Escape``...)."""
        codes = {"ArrowDown": 40, "ArrowUp": 38, "PageDown": 34, "PageUp": 33, "Home": 36,
                 "End": 35, "Escape": 27, "Enter": 13}
        code = codes.get(key, ord(key.upper()) if len(key) == 1 else 0)
        params = {"key": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        if len(key) == 1:
            params["text"] = key
        self.call("Input.dispatchKeyEvent", type="keyDown", **params)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, windowsVirtualKeyCode=code)

    def screenshot(self, path: str, full_page: bool = False) -> str:
        """Save a PNG of the viewport (or of the whole page) to ``path``."""
        params = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            metrics = self.call("Page.getLayoutMetrics")
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"],
                              "height": min(size["height"], 16000), "scale": 1}
        data = self.call("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))
        return path

    def console_errors(self) -> List[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        errors = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                       for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                errors.append(details.get("exception", {}).get("description")
                              or details.get("text", "exception"))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                errors.append(params["entry"].get("text", ""))
        return errors
