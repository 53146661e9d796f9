#!/usr/bin/env python3
"""What a client without the token can cost the inspector's server (storesh-inspector).

Starts `storesh --inspect` (Counter, in process), reads the address it prints, then:

1. line: a request line of 64 kB (`GET /?x=aaa... HTTP/1.1`), ROUNDS times: the time from
   connecting until the answer (414) has arrived. Goal: under 100 ms.
2. headers: two clients sending 4 MB header lines over and over (each refused, then again
   on a new connection) while ROUNDS GETs of /api/session with the token are timed, one
   after the other; compared with the same GETs before. Goal: the slowest GET is at most
   100 ms slower than the median before.
3. memory: a 300 MB chunked POST with a wrong token (64 KiB chunks): storesh-inspector's
   resident memory, sampled every 2 ms while it runs, and its peak (VmHWM) before and
   after. Goal: under 2 MB more.

Usage: Benchmarks/inspector-limits.py [--storesh PATH] [--rounds N] [--give-up SECONDS]
                                      [--only line|headers|memory]
Set STORESH_INSPECTOR to measure another storesh-inspector (an older build, say).
Exits 1 when a goal is missed. Build first: swift build -c release (or debug).
"""
import argparse
import os
import re
import socket
import statistics
import subprocess
import threading
import time


def start(storesh):
    server = subprocess.Popen([storesh, "--inspect", "--in-process"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    while True:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("storesh ended before it printed the inspector's address")
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\w+)", line)
        if found:
            return server, int(found.group(1)), found.group(2)


def inspector_pid(parent):
    """storesh-inspector, the child of storesh."""
    for _ in range(500):
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{entry}/comm") as comm:
                    name = comm.read().strip()
            except OSError:
                continue
            if int(fields[1]) == parent and name.startswith("storesh-inspect"):
                return int(entry)
        time.sleep(0.01)
    raise SystemExit("storesh-inspector was not found among storesh's children")


def memory(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def exchange(port, request, give_up, on_sent=None):
    """Sends `request` from a thread while the answer is read: (status, seconds, bytes sent)."""
    started = time.perf_counter()
    connection = socket.create_connection(("127.0.0.1", port))
    connection.settimeout(give_up)
    sent = [0]

    def sender():
        view = memoryview(request)
        try:
            while sent[0] < len(request):
                sent[0] += connection.send(view[sent[0]:sent[0] + 65536])
        except OSError:
            pass
        if on_sent:
            on_sent()

    thread = threading.Thread(target=sender, daemon=True)
    thread.start()
    received = b""
    try:
        while b"\r\n" not in received:
            more = connection.recv(65536)
            if not more:
                break
            received += more
    except OSError:
        pass
    seconds = time.perf_counter() - started
    try:
        connection.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    thread.join(give_up)
    connection.close()
    status = received.split(b" ")[1].decode() if received.startswith(b"HTTP/1.1 ") else "none"
    return status, seconds, sent[0]


def timed_get(port, token, give_up):
    request = f"GET /api/session?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    return exchange(port, request.encode(), give_up)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storesh", default=".build/release/storesh")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--give-up", type=float, default=10.0, help="seconds to wait for one answer")
    parser.add_argument("--only", choices=["line", "headers", "memory"], help="one measurement (a server stalled by one skews the next)")
    options = parser.parse_args()
    server, port, token = start(options.storesh)
    pid = inspector_pid(server.pid)
    missed = []
    host = f"Host: 127.0.0.1:{port}\r\n".encode()

    run = lambda name: options.only in (None, name)
    if run("line"):
        measure_line(port, host, options, missed)
    if run("headers"):
        measure_headers(port, token, host, options, missed)
    if run("memory"):
        measure_memory(port, pid, options, missed)
    server.stdin.close()
    server.wait(10)
    if missed:
        print("missed: " + ", ".join(missed))
        raise SystemExit(1)


def measure_line(port, host, options, missed):
    line = b"GET /?x=" + b"a" * (64 * 1024) + b" HTTP/1.1\r\n" + host + b"\r\n"
    times = []
    for _ in range(options.rounds):
        status, seconds, _ = exchange(port, line, options.give_up)
        times.append(seconds)
    print(f"64 kB request line: answered {status} in {statistics.median(times) * 1e3:.1f} ms "
          f"(median of {len(times)}), {max(times) * 1e3:.1f} ms at most")
    if max(times) > 0.1:
        missed.append("64 kB request line")


def measure_headers(port, token, host, options, missed):
    before = [timed_get(port, token, options.give_up)[1] for _ in range(options.rounds)]
    header = b"GET / HTTP/1.1\r\n" + host + b"X-Filler: " + b"a" * (4 << 20) + b"\r\n\r\n"
    attacking = threading.Event()
    attacking.set()
    refused = []

    def attacker():
        while attacking.is_set():
            refused.append(exchange(port, header, options.give_up)[0])

    attackers = [threading.Thread(target=attacker, daemon=True) for _ in range(2)]
    for thread in attackers:
        thread.start()
    time.sleep(0.2)
    during = []
    statuses = set()
    for _ in range(options.rounds):
        status, seconds, _ = timed_get(port, token, options.give_up)
        statuses.add(status)
        during.append(seconds)
    attacking.clear()
    for thread in attackers:
        thread.join(options.give_up * 2)
    delay = max(during) - statistics.median(before)
    print(f"GET beside two 4 MB header senders: {statistics.median(during) * 1e3:.1f} ms median, "
          f"{max(during) * 1e3:.1f} ms at most (before: {statistics.median(before) * 1e3:.1f} ms median); "
          f"answered {sorted(statuses)}; the senders were answered {sorted(set(refused))} ({len(refused)} times)")
    if delay > 0.1 or statuses != {"200"}:
        missed.append("GET beside 4 MB headers")


def measure_memory(port, pid, options, missed):
    chunk = b"10000\r\n" + b"a" * 65536 + b"\r\n"
    count = 300 * 1024 * 1024 // 65536
    head = (f"POST /api/operations/send?token=wrong HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    body = head + chunk * count + b"0\r\n\r\n"
    resident = memory(pid, "VmRSS")
    peak_before = memory(pid, "VmHWM")
    sampled = [resident]
    sampling = threading.Event()
    sampling.set()

    def sample():
        while sampling.is_set():
            sampled.append(memory(pid, "VmRSS"))
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    status, seconds, sent = exchange(port, body, options.give_up)
    time.sleep(0.1)
    sampling.clear()
    sampler.join()
    peak_after = memory(pid, "VmHWM")
    grown = max(max(sampled) - resident, peak_after - peak_before)
    print(f"300 MB chunked POST, wrong token: answered {status} after {seconds * 1e3:.1f} ms, "
          f"{sent / 1e6:.1f} MB of {len(body) / 1e6:.1f} MB sent; storesh-inspector resident "
          f"{resident / 1e6:.1f} MB, at most {max(sampled) / 1e6:.1f} MB while it ran "
          f"(peak {peak_before / 1e6:.1f} -> {peak_after / 1e6:.1f} MB): +{grown / 1e6:.2f} MB")
    if grown >= 2e6:
        missed.append("memory of a 300 MB chunked body")


if __name__ == "__main__":
    main()
