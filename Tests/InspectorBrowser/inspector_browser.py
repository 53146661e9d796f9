#!/usr/bin/env python3
"""The inspector in a real browser: storesh runs a session from a script it reads as the
test writes it (the session at a prompt, in effect), with --inspect; a headless chromium
opens the page it printed, and the test checks the page's DOM after actions, effects, a
refused action, a crash and a reload, moves the slider with the arrow keys, jumps the
session there, and saves screenshots. `--figures` also measures the delay from an action
to its entry on the page and the page's memory with a 100,000-action history.

Usage: inspector_browser.py --storesh .build/debug/storesh --chromium /usr/bin/chromium
       [--screenshots DIR] [--figures]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

from cdp import Browser
from snapshot import png_size


class Session:
    """storesh --inspect, reading its script from a pipe; its output kept as it comes."""

    # Every session started, so a failure can show what storesh said on standard error.
    started = []

    def __init__(self, storesh, *arguments):
        Session.started.append(self)
        self.process = subprocess.Popen([storesh, "--inspect", *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out, self.err = [], []
        threading.Thread(target=self.drain, args=(self.process.stdout, self.out), daemon=True).start()
        threading.Thread(target=self.drain, args=(self.process.stderr, self.err), daemon=True).start()
        deadline = time.monotonic() + 60
        while not any("inspector: " in line for line in self.err):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"storesh printed no inspector address: {''.join(self.err)}")
            time.sleep(0.05)
        self.url = re.search(r"inspector: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64})", "".join(self.err)).group(1)

    @staticmethod
    def drain(stream, lines):
        for line in stream:
            lines.append(line)

    def type(self, *lines):
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_output(self, text, timeout=30):
        deadline = time.monotonic() + timeout
        while text not in "".join(self.out):
            if time.monotonic() > deadline:
                raise AssertionError(f"storesh never printed {text!r}; it printed:\n{''.join(self.out)[-2000:]}")
            time.sleep(0.05)

    def end(self):
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


def count(selector):
    return f"document.querySelectorAll({json.dumps(selector)}).length"


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok: {what}")


def behaviour(storesh, browser, shots):
    session = Session(storesh, "--plugin", "Counter", "--plugin", "Auth", "--plugin", "Faulty")
    browser.open(session.url)
    browser.wait("document.getElementById('status').textContent === 'live'", "the event stream")
    check(browser.eval("[...document.querySelectorAll('#model option')].map(o => o.value).join(',')") == "counter.counter,auth.auth,faulty.faulty",
          "the model picker lists the three models")

    # Actions: the log grows as the session runs, the change is highlighted.
    session.type("increment", "increment", "setCount 5")
    browser.wait(f"{count('#log li.entry')} === 3", "three log entries")
    last = browser.eval("document.querySelector('#log li.entry:last-child').textContent")
    check("setCount 5" in last and "script" in last, f"the last entry is the script's setCount 5 ({last!r})")
    browser.wait("document.querySelector('#tree .leaf.changed[data-path=\"count\"]')?.textContent === 'count: 5'", "count highlighted as changed")
    check("count: 2 → 5" in browser.eval("document.getElementById('diff').textContent"), "the diff of setCount 5 is shown")
    browser.screenshot(os.path.join(shots, "1-actions.png"))

    # Issue 51: a snapshot for a bug report, by the documented recipe (its own headless
    # chromium, as root too), taken once the page shows the session's actions and state.
    picture = os.path.join(shots, "snapshot.png")
    if os.path.exists(picture):
        os.remove(picture)
    taken = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "snapshot.py"), "--chromium",
                            browser.chromium, session.url, picture], capture_output=True, text=True, timeout=120)
    check(taken.returncode == 0 and "3 action row(s) and the state" in taken.stdout,
          f"the snapshot recipe waited for the three actions and the state ({taken.stdout.strip()}{taken.stderr.strip()})")
    width, height = png_size(picture)
    check(width >= 800 and height >= 600 and os.path.getsize(picture) > 20_000,
          f"the snapshot is a whole page ({width}x{height}, {os.path.getsize(picture)} bytes)")
    refused = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "snapshot.py"), "--chromium",
                              browser.chromium, "http://example.com/", picture], capture_output=True, text=True)
    check(refused.returncode == 2 and "give the address storesh printed" in refused.stderr,
          "the recipe refuses an address that is not the inspector's")

    # Issue 51: the Send box's example comes from the model's own actions (it said
    # "increment, setCount 5" for every model), the clock reads as a duration, and the
    # panels fill the window (the bottom third was empty).
    browser.wait("document.getElementById('send-text').placeholder.includes('counter.counter (')", "a placeholder for the model")
    placeholder = browser.eval("document.getElementById('send-text').placeholder")
    check("increment" in placeholder and "setCount" in placeholder, f"Counter's examples ({placeholder!r})")
    where = browser.eval("document.getElementById('where').textContent")
    check(re.search(r"clock (\d+h )?(\d+m )?\d+(\.\d+)?s$", where) is not None, f"the clock reads as a duration ({where!r})")
    shown = browser.eval("[2419395, 500, 0, 3600000, 3723004].map(duration).join(' | ')")
    check(shown == "40m 19.395s | 0.5s | 0s | 1h 0m 0s | 1h 2m 3.004s", f"durations as people read them ({shown!r})")
    bottom = browser.eval("document.getElementById('send-form').getBoundingClientRect().bottom / window.innerHeight")
    check(bottom > 0.95, f"the page fills the window (the Send box ends at {bottom:.0%} of its height)")

    # The slider: an arrow key moves it back; the state shown is that one.
    browser.key("ArrowLeft", 37)
    browser.wait("document.getElementById('state-at').textContent.startsWith('after action 2')", "the state after action 2")
    browser.wait("document.querySelector('#tree .leaf[data-path=\"count\"]')?.textContent === 'count: 2'", "count 2 at action 2")
    check(browser.eval("document.getElementById('slider').value") == "2", "the slider is at 2")
    check(browser.eval("document.querySelector('#log li.selected').dataset.index") == "2", "action 2 is selected in the log")
    browser.screenshot(os.path.join(shots, "2-slider.png"))

    # Jump here: the session goes there, and says so.
    browser.eval("document.getElementById('jump').click()")
    session.wait_output("at 2 of 3")
    browser.wait("document.querySelector('#log li.current')?.dataset.index === '2'", "the session's position marked at 2")
    check(browser.eval("document.getElementById('slider-label').textContent") == "2 of 3", "the slider follows the session again")

    # Effects: two sign-ins, the first cancelled by the second, the second emitting.
    session.type(":use auth.auth", 'authenticate user: "bo", password: "open sesame"', 'authenticate user: "al", password: "open sesame"', ":wait")
    browser.eval("(() => { const s = document.getElementById('model'); s.value = 'auth.auth'; s.dispatchEvent(new Event('change')); })()")
    browser.wait(f"{count('#lanes .lane')} >= 2", "two effect lanes")
    browser.wait(f"{count('#lanes .mark.cancelled')} >= 1 && {count('#lanes .mark.emitted')} >= 1 && {count('#lanes .mark.finished')} >= 1",
                 "cancelled, emitted and finished marks")
    title = browser.eval("document.querySelector('#lanes .mark.emitted').title")
    check("succeed" in title and "authenticate" in title, f"hovering the emitted mark tells the action ({title!r})")
    browser.wait(f"{count('#log li.entry.effect')} >= 1", "the effect's action in the log, marked effect")
    browser.wait("document.getElementById('send-text').placeholder.includes('authenticate user: ')", "Auth's own example in the Send box")

    # A long action wraps in its row, whole, instead of hiding behind a scrollbar.
    long_user = "a-user-name-long-enough-to-need-more-than-one-line-" * 4
    session.type(f'authenticate user: "{long_user}", password: "wrong"', ":wait")
    browser.wait(f"[...document.querySelectorAll('#log li.entry')].some(li => li.textContent.includes({json.dumps(long_user)}))",
                 "the long action in the log")
    wraps = browser.eval(f"""(() => {{
        const li = [...document.querySelectorAll('#log li.entry')].find(li => li.textContent.includes({json.dumps(long_user)}));
        const panel = document.getElementById('log-panel');
        return {{ whole: li.title.includes({json.dumps(long_user)}), high: li.getBoundingClientRect().height > 30,
                 fits: panel.scrollWidth <= panel.clientWidth + 1 }};
    }})()""")
    check(wraps["whole"] and wraps["high"] and wraps["fits"], f"a long row wraps and shows whole on hover ({wraps})")
    browser.screenshot(os.path.join(shots, "3-effects.png"))

    # Refused, crashed, reloaded: shown as events; the page goes on.
    session.type("nosuchaction", ":use faulty.faulty", "increment", "segfault")
    browser.wait(f"{count('#events li.refused')} >= 1", "the refused action as an event")
    browser.wait(f"{count('#events li.crashed')} >= 1", "the crash as an event")
    session.type(":reload")
    session.type(":use counter.counter", "increment")
    browser.eval("(() => { const s = document.getElementById('model'); s.value = 'counter.counter'; s.dispatchEvent(new Event('change')); })()")
    browser.wait(f"document.querySelector('#log li.entry:last-child')?.textContent.includes('increment') && window.inspector.ui.count === 3",
                 "the log after the crash and the reload")
    check(browser.eval("document.getElementById('status').textContent") == "live", "the page is still live")
    browser.screenshot(os.path.join(shots, "4-after-crash.png"))
    check(not browser.console, f"no script errors on the page: {browser.console}")
    return session


def delay(storesh, browser, runs=20):
    """Milliseconds from an action written to the session to its entry on the page."""
    session = Session(storesh, "--plugin", "Counter")
    browser.open(session.url)
    browser.wait("document.getElementById('status').textContent === 'live'", "the event stream")
    delays = []
    for number in range(1, runs + 1):
        before = time.time() * 1000
        session.type("increment")
        browser.wait(f"document.querySelector('#log li.entry[data-index=\"{number}\"]') !== null", f"entry {number}")
        shown = browser.eval("performance.timeOrigin + window.inspector.stats.lastRowAt")
        delays.append(shown - before)
    session.end()
    return delays


def memory(storesh, browser, actions=100_000):
    """The page's JavaScript heap and DOM size with a long history, beside an empty one."""
    figures = {}
    for size in (0, actions):
        session = Session(storesh, "--plugin", "Counter")
        session.type(*(["increment"] * size))
        browser.open(session.url)
        browser.wait(f"window.inspector && window.inspector.ui.count === {size} && document.getElementById('status').textContent === 'live'",
                     f"a history of {size}", timeout=300)
        browser.wait(f"document.getElementById('state-at').textContent.startsWith('after action {size}')", "the state shown")
        browser.eval("new Promise(r => setTimeout(r, 500))")
        browser.call("HeapProfiler.collectGarbage", page=True)
        metrics = browser.metrics()
        figures[size] = {"heap_bytes": int(metrics["JSHeapUsedSize"]), "nodes": int(metrics["Nodes"]),
                         "log_rows": browser.eval(count("#log li"))}
        session.end()
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storesh", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--screenshots", default=".build/inspector-screenshots")
    parser.add_argument("--figures", action="store_true")
    options = parser.parse_args()
    os.makedirs(options.screenshots, exist_ok=True)
    browser = Browser(options.chromium)
    try:
        session = behaviour(options.storesh, browser, options.screenshots)
        status = session.end()
        check(status in (0, 1), f"storesh ended normally (status {status}: 1 for the refused line and the crash)")
        if options.figures:
            delays = delay(options.storesh, browser)
            print(f"figure: action to its entry on the page, {len(delays)} actions: median {statistics.median(delays):.1f} ms, "
                  f"max {max(delays):.1f} ms")
            for size, figure in memory(options.storesh, browser).items():
                print(f"figure: page with a {size}-action history: JS heap {figure['heap_bytes'] / 1e6:.2f} MB, "
                      f"{figure['nodes']} DOM nodes, {figure['log_rows']} log rows")
    finally:
        browser.close()
    print(f"screenshots in {options.screenshots}")


def sanitizer_reports():
    """What a sanitizer said on a session's standard error (storesh's, its inspector
    server's and its workers', which all write there): a build under --sanitize must not
    pass with a report. A crash (SEGV, a deadly signal) is left to the checks that expect
    one: the test crashes a worker of the Faulty plugin on purpose."""
    markers = ("WARNING: ThreadSanitizer", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer")
    crashes = ("AddressSanitizer: SEGV", "AddressSanitizer: DEADLYSIGNAL", "AddressSanitizer: ABRT", "AddressSanitizer: BUS")
    return [line for session in Session.started for line in session.err
            if any(marker in line for marker in markers) and not any(crash in line for crash in crashes)]


if __name__ == "__main__":
    try:
        main()
        reports = sanitizer_reports()
        if reports:
            raise AssertionError(f"a sanitizer reported: {reports[:5]}")
    except AssertionError as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        for number, session in enumerate(Session.started, 1):
            print(f"-- storesh session {number}, the end of its standard error:", file=sys.stderr)
            print("".join(session.err[-40:]), file=sys.stderr, end="")
        sys.exit(1)
