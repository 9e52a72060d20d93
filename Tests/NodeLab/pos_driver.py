"""Drives the page open in a headless Chromium over the Chrome DevTools Protocol, as a person
at the till would: real touch events at each element's centre, screenshots, and reads of the
page. Python's standard library only (a minimal WebSocket client below), so it runs on a
fresh machine. Used by pos-tests.sh.

    python pos_driver.py --port CDP_PORT ACTION ARGUMENT [ACTION ARGUMENT ...]

Actions, run in order (the first failure exits 1 with what was expected):
    open URL          load URL (a fresh document even when only the fragment differs)
    tap SELECTOR      touch the element's centre (touchStart, touchEnd: the page gets a click)
    type TEXT         type into the focused element
    shot FILE         the viewport as a PNG
    wait EXPRESSION   until the JavaScript expression is truthy (--timeout seconds, default 60)
    text SELECTOR     print the element's text
    eval EXPRESSION   print the expression's value (JSON unless a string)
The viewport is 800x480 with touch (a 7" stall screen) unless --size says otherwise.
"""

import argparse
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time
import urllib.parse
import urllib.request


class WebSocket:
    """The WebSocket protocol, client side, text frames only: enough for the DevTools protocol."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._receive()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        expected = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        )
        if b" 101 " not in head.split(b"\r\n")[0] or expected not in head:
            raise RuntimeError(f"WebSocket handshake refused: {head.decode(errors='replace')}")

    def _receive(self):
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise RuntimeError("the browser closed the DevTools connection")
        return chunk

    def _read(self, count):
        while len(self.buffer) < count:
            self.buffer += self._receive()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, opcode, payload):
        # The protocol requires every frame from a client to be masked.
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8))
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise RuntimeError("the browser closed the DevTools connection")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self._send_frame(0x8, b"")
        finally:
            self.sock.close()


class Page:
    """The browser's first page, through its DevTools WebSocket."""

    def __init__(self, port, width, height):
        # A busy machine (a QEMU guest beside, one core) can keep Chromium from answering for
        # a while: the wait is for an answer, as long as the other waits.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=60) as answer:
            targets = json.load(answer)
        page = next(target for target in targets if target["type"] == "page")
        self.socket = WebSocket(page["webSocketDebuggerUrl"])
        self.last_id = 0
        # Overrides last as long as this connection: each run sets them again.
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=1, mobile=False,
        )
        self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)

    def call(self, method, **params):
        self.last_id += 1
        self.socket.send(json.dumps({"id": self.last_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.receive())
            if message.get("id") == self.last_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, expression):
        result = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError(
                f"{expression}: {details.get('exception', {}).get('description', details)}"
            )
        return result["result"].get("value")

    def wait(self, expression, timeout):
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"not true within {timeout} s: {expression}")
            time.sleep(0.1)

    def open(self, url, timeout):
        # about:blank first: a URL differing only in its fragment would not load the page again.
        self.call("Page.navigate", url="about:blank")
        self.wait("location.href === 'about:blank'", timeout)
        self.call("Page.navigate", url=url)
        self.wait(
            f"location.href !== 'about:blank' && document.readyState === 'complete'", timeout
        )

    def tap(self, selector):
        box = self.evaluate(
            f"""(() => {{
                const element = document.querySelector({json.dumps(selector)});
                if (!element) return null;
                const box = element.getBoundingClientRect();
                return {{x: box.x + box.width / 2, y: box.y + box.height / 2,
                         visible: box.width > 0 && box.height > 0 && !element.disabled}};
            }})()"""
        )
        if not box or not box["visible"]:
            raise AssertionError(f"nothing to tap at {selector} ({box})")
        point = {"x": box["x"], "y": box["y"], "radiusX": 8, "radiusY": 8, "force": 1}
        self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[point])
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True, help="Chromium's DevTools port")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--size", default="800x480", help="the viewport, WIDTHxHEIGHT")
    parser.add_argument("steps", nargs="+", help="ACTION ARGUMENT pairs")
    options = parser.parse_args()
    if len(options.steps) % 2:
        parser.error("actions come in pairs: ACTION ARGUMENT")
    width, height = (int(side) for side in options.size.split("x"))
    page = Page(options.port, width, height)
    try:
        for action, argument in zip(options.steps[::2], options.steps[1::2]):
            if action == "open":
                page.open(argument, options.timeout)
            elif action == "tap":
                page.tap(argument)
            elif action == "type":
                page.call("Input.insertText", text=argument)
            elif action == "shot":
                page.screenshot(argument)
            elif action == "wait":
                page.wait(argument, options.timeout)
            elif action == "text":
                print(page.evaluate(f"document.querySelector({json.dumps(argument)}).textContent"))
            elif action == "eval":
                value = page.evaluate(argument)
                print(value if isinstance(value, str) else json.dumps(value))
            else:
                parser.error(f"unknown action {action}")
    except (AssertionError, RuntimeError) as failure:
        print(f"pos driver: {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        page.socket.close()


if __name__ == "__main__":
    main()
