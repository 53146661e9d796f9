#!/usr/bin/env python3
"""A pipelined burst through `storesh mcp`: N actions written in one go, then read.

A client may write its requests without waiting for answers. storesh runs them in the
order they came and answers them in that order, so after `setCount 1` ... `setCount N`
the count is N, every answer comes in turn, and each action's diff starts from the count
the one before set. Raw JSON-RPC lines on a pipe (no SDK): Python's standard library only.

Usage: Tests/MCPClient/burst.py [STORESH] [--requests N] [--runs R]
Exits 1 at the first run that breaks the order (and says how).
"""
import argparse
import json
import subprocess
import sys
import threading


def burst(storesh, requests):
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "burst", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for value in range(1, requests + 1):
        lines.append({"jsonrpc": "2.0", "id": value, "method": "tools/call",
                      "params": {"name": "send", "arguments": {"action": f"setCount {value}"}}})
    lines.append({"jsonrpc": "2.0", "id": requests + 1, "method": "tools/call",
                  "params": {"name": "state", "arguments": {}}})
    payload = "".join(json.dumps(line) + "\n" for line in lines).encode()
    server = subprocess.Popen([storesh, "mcp", "--plugin", "Counter"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def feed():  # all at once, before a single answer is read
        server.stdin.write(payload)
        server.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    output = server.stdout.read()
    writer.join()
    server.wait()
    answers = [json.loads(line) for line in output.splitlines()]
    ids = [answer["id"] for answer in answers if "id" in answer]
    if ids != list(range(0, requests + 2)):
        return f"answers out of order or missing: first difference at {next((i for i, (a, b) in enumerate(zip(ids, range(requests + 2))) if a != b), len(ids))}"
    for answer in answers[1:requests + 1]:
        value = answer["id"]
        text = answer["result"]["content"][0]["text"]
        if not text.endswith(f"count: {value - 1} → {value}"):
            return f"request {value} ran out of order: {text!r}"
    state = answers[requests + 1]["result"]["content"][0]["text"]
    if f"count: {requests}" not in state:
        return f"ends in the wrong state: {state!r}"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("storesh", nargs="?", default=".build/debug/storesh")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    for run in range(1, options.runs + 1):
        problem = burst(options.storesh, options.requests)
        if problem:
            print(f"run {run} of {options.runs}: {problem}")
            sys.exit(1)
    print(f"{options.runs} of {options.runs} bursts of {options.requests} requests: run and answered in order, ending in count {options.requests}")


if __name__ == "__main__":
    main()
