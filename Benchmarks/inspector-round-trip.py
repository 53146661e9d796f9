#!/usr/bin/env python3
"""The inspector's answers, as a page gets them: requests on one kept-alive connection.

Starts `storesh --inspect` (Counter, in process unless --worker), reads the address it
prints, then times COUNT requests one after the other on one HTTP/1.1 connection:
`GET /api/state` (a read, answered at once) and `POST /api/operations/send` of `increment`
(an operation, run in turn with the prompt's lines). Each request goes from the client to
storesh-inspector, is relayed to storesh and answered back the same way. Also times the
start: storesh started with --inspect until it has printed the address and quit.

Usage: Benchmarks/inspector-round-trip.py [--storesh PATH] [--count N] [--worker]
Prints p50 and p95 in microseconds. Build first: swift build -c release.
"""
import argparse
import http.client
import re
import subprocess
import time


def percentiles(samples):
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return pick(0.50) * 1e6, pick(0.95) * 1e6


def round_trips(storesh, count, extra):
    server = subprocess.Popen([storesh, "--inspect", *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = token = None
    while port is None:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("storesh ended before it printed the inspector's address")
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\w+)", line)
        if found:
            port, token = int(found.group(1)), found.group(2)
    connection = http.client.HTTPConnection("127.0.0.1", port)
    results = {}
    for label, method, path, body in [
        ("GET  /api/state", "GET", f"/api/state?token={token}", None),
        ("POST /api/operations/send", "POST", f"/api/operations/send?token={token}", '{"action": "increment"}'),
    ]:
        samples = []
        for _ in range(count):
            started = time.perf_counter()
            connection.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
            answer = connection.getresponse()
            answer.read()
            samples.append(time.perf_counter() - started)
            if answer.status != 200:
                raise SystemExit(f"{label} answered {answer.status}")
        results[label] = percentiles(samples)
    server.stdin.close()
    server.wait()
    return results


def start_up(storesh, extra, rounds=10):
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        done = subprocess.run([storesh, "--inspect", "-c", ":quit", *extra], capture_output=True, text=True)
        best = min(best, time.perf_counter() - started)
        if "inspector: http://127.0.0.1:" not in done.stdout + done.stderr:
            raise SystemExit("storesh --inspect did not print the address: " + done.stderr)
    return best * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--storesh", default=".build/release/storesh")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--worker", action="store_true", help="Counter in a worker, not in process")
    options = parser.parse_args()
    extra = [] if options.worker else ["--in-process"]
    where = "in a worker" if options.worker else "in process"
    print(f"start with --inspect to the address, then :quit (best of 10): {start_up(options.storesh, extra):.1f} ms")
    for label, (p50, p95) in round_trips(options.storesh, options.count, extra).items():
        print(f"{label:28} Counter {where}: p50 {p50:7.0f} µs  p95 {p95:7.0f} µs  ({options.count} on one connection)")


if __name__ == "__main__":
    main()
