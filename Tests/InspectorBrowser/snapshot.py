"""A picture of the inspector for a bug report: opens the page at URL in headless
chromium (as root too: the sandbox is off), waits until the page has shown what the
session holds — connected, its refresh done, the log and the state tree drawn — and saves
a PNG. scripts/inspector-snapshot runs it; the browser test checks it.

    snapshot.py --chromium PATH [--width W --height H] URL FILE.png
"""
import argparse
import struct
import sys
import time

from cdp import Browser

# What "the data has arrived" means on the page: the event stream is live, no refresh is
# running (it loads the log, then the state), the state tree is drawn, and the log has
# its rows when the session has actions.
READY = """(() => {
  const live = document.getElementById('status').textContent === 'live';
  const idle = typeof running !== 'undefined' && running === null;
  const tree = document.querySelector('#tree').children.length > 0;
  const rows = document.querySelectorAll('#log li.entry').length;
  return live && idle && tree && (ui.count === 0 || rows > 0) ? {rows} : false;
})()"""


def snapshot(browser, url, path, timeout=30):
    """Opens url, waits for READY to hold twice in a row, 0.2 s apart (a refresh the
    first answer started is done by the second), saves the PNG; returns the log rows."""
    browser.open(url)
    deadline = time.monotonic() + timeout
    rows = browser.wait(READY, "the inspector's data", timeout=timeout)
    while True:
        time.sleep(0.2)
        again = browser.eval(READY)
        if again is not False and again == rows:
            break
        if time.monotonic() > deadline:
            raise AssertionError("the page kept changing; no snapshot taken")
        rows = again
    browser.screenshot(path)
    return rows["rows"]


def png_size(path):
    """Width and height from a PNG's header; raises if the file is not a PNG."""
    with open(path, "rb") as file:
        head = file.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError(f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


def main():
    parser = argparse.ArgumentParser(description="Save a PNG of storesh's inspector page once its data has arrived.")
    parser.add_argument("--chromium", required=True)
    parser.add_argument("url", help="the address storesh printed: http://127.0.0.1:PORT/?token=…")
    parser.add_argument("file", help="the PNG to write")
    options = parser.parse_args()
    if not options.url.startswith("http://127.0.0.1:") or "token=" not in options.url:
        print("inspector-snapshot: give the address storesh printed (http://127.0.0.1:PORT/?token=…)", file=sys.stderr)
        sys.exit(2)
    browser = Browser(options.chromium)
    try:
        rows = snapshot(browser, options.url, options.file)
    finally:
        browser.close()
    width, height = png_size(options.file)
    print(f"wrote {options.file} ({width}x{height}): {rows} action row(s) and the state")


if __name__ == "__main__":
    try:
        main()
    except (AssertionError, RuntimeError, OSError) as failure:
        print(f"inspector-snapshot: {failure}", file=sys.stderr)
        sys.exit(1)
