#!/usr/bin/env python3
"""The round trip of one action through `storesh mcp`, beside the same action at the prompt.

MCP: a client writes a tools/call of `send increment` on stdin and waits for its answer
on stdout, one at a time (plain JSON-RPC lines, no SDK: the client's own cost stays out).
Prompt: `increment` typed into storesh on a pseudo-terminal, until its result and the
next prompt are shown. Both on Counter, in a worker (the default) unless --in-process.

Usage: Benchmarks/mcp-round-trip.py [--storesh PATH] [--count N] [--in-process]
Prints p50 and p95 in microseconds for each. Build first: swift build -c release.
"""
import argparse
import json
import os
import pty
import select
import subprocess
import time


def percentiles(samples):
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return pick(0.50) / 1000, pick(0.95) / 1000


def mcp_round_trips(storesh, count, extra):
    server = subprocess.Popen([storesh, "mcp", "--plugin", "Counter", *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def ask(identifier, method, params):
        server.stdin.write((json.dumps({"jsonrpc": "2.0", "id": identifier, "method": method, "params": params}) + "\n").encode())
        server.stdin.flush()
        while True:
            answer = json.loads(server.stdout.readline())
            if answer.get("id") == identifier:
                return answer

    ask(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
    server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    samples = []
    call = {"name": "send", "arguments": {"action": "increment"}}
    for identifier in range(1, count + 101):
        start = time.perf_counter_ns()
        answer = ask(identifier, "tools/call", call)
        if identifier > 100:  # the first hundred warm up
            samples.append(time.perf_counter_ns() - start)
        assert "state changed" in answer["result"]["content"][0]["text"], answer
    server.stdin.close()
    server.wait()
    return samples


def prompt_round_trips(storesh, count, extra):
    primary, secondary = pty.openpty()
    environment = dict(os.environ, STORESH_HISTORY="/dev/null", NO_COLOR="1")
    shell = subprocess.Popen([storesh, "--plugin", "Counter", "--no-color", *extra], stdin=secondary, stdout=secondary, stderr=secondary, env=environment, close_fds=True)
    os.close(secondary)
    seen = b""

    def read_until(marker):
        nonlocal seen
        while marker not in seen:
            ready, _, _ = select.select([primary], [], [], 10)
            if not ready:
                raise TimeoutError(f"no {marker!r} from the prompt; saw {seen[-200:]!r}")
            seen += os.read(primary, 65536)
        seen = seen[seen.index(marker) + len(marker):]

    read_until(b"counter> ")
    samples = []
    for turn in range(count + 100):
        start = time.perf_counter_ns()
        os.write(primary, b"increment\n")
        read_until(b"state changed")
        read_until(b"counter> ")
        if turn >= 100:
            samples.append(time.perf_counter_ns() - start)
    # Ctrl-D typed before libedit is back in raw mode is flushed (docs/pitfalls.md):
    # type it again until storesh leaves, and stop it if it does not.
    for _ in range(50):
        os.write(primary, b"\x04")
        try:
            shell.wait(timeout=0.1)
            break
        except subprocess.TimeoutExpired:
            continue
    else:
        shell.kill()
        shell.wait()
    os.close(primary)
    return samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storesh", default=".build/release/storesh")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--in-process", action="store_true")
    options = parser.parse_args()
    extra = ["--in-process"] if options.in_process else []
    where = "in process" if options.in_process else "in a worker"
    for name, measure in [("mcp tools/call send", mcp_round_trips), ("prompt", prompt_round_trips)]:
        p50, p95 = percentiles(measure(options.storesh, options.count, extra))
        print(f"{name:<22} increment on Counter {where}: p50 {p50:7.1f} µs  p95 {p95:7.1f} µs  ({options.count} round trips)")


if __name__ == "__main__":
    main()
