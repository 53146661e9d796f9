"""A small Chrome DevTools Protocol client: starts a headless chromium, opens one page,
evaluates JavaScript in it, presses keys, takes screenshots. Only what the inspector's
browser test needs; the browser is the system's (Debian's chromium), nothing fetched."""
import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

from websockets.sync.client import connect


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    def __init__(self, chromium):
        self.chromium = chromium
        port = free_port()
        self.profile = tempfile.mkdtemp(prefix="storesh-chromium-")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--remote-debugging-port={port}", f"--user-data-dir={self.profile}", "--window-size=1400,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=2) as answer:
                    address = json.load(answer)["webSocketDebuggerUrl"]
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("chromium did not start its DevTools endpoint")
                time.sleep(0.2)
        self.socket = connect(address, max_size=None, open_timeout=30)
        self.next_id = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", page=True)
        self.call("Runtime.enable", page=True)
        self.call("Performance.enable", page=True)
        self.console = []

    def call(self, method, page=False, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if page:
            message["sessionId"] = self.session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv(timeout=60))
            if answer.get("method") == "Runtime.exceptionThrown":
                self.console.append(json.dumps(answer["params"]["exceptionDetails"])[:500])
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def open(self, url):
        self.call("Page.navigate", page=True, url=url)

    def eval(self, expression):
        result = self.call("Runtime.evaluate", page=True, expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression, what, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except RuntimeError:  # the page is still loading
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what} ({expression})")
            time.sleep(0.05)

    def key(self, key, code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", page=True, type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", page=True, format="png")["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def metrics(self):
        return {m["name"]: m["value"] for m in self.call("Performance.getMetrics", page=True)["metrics"]}

    def close(self):
        try:
            self.socket.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            shutil.rmtree(self.profile, ignore_errors=True)
