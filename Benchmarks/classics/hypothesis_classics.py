"""The eight classic models of plugins/Classics as Hypothesis rule-based state machines,
with the same bugs and the same properties, for the side-by-side figures with
`storesh explore` (scripts/explore-acceptance). Each model is written plainly; the
property is the rule's postcondition or an invariant, as a Hypothesis user writes it.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install hypothesis
    /tmp/venv/bin/python Benchmarks/classics/hypothesis_classics.py [--seeds 5] [--examples 10000] [MODEL...]

Per model and seed: found, seconds to find (generation only), seconds with shrinking,
the shrunk run's length, and steps per second while generating.
"""
import argparse
import time

import hypothesis.core
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.reporting import with_reporter
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

STEPS = [0]  # steps run, for steps per second


def counted(function):
    def wrapper(*args, **kwargs):
        STEPS[0] += 1
        return function(*args, **kwargs)

    wrapper.__name__ = function.__name__
    return wrapper


class Jugs(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.big, self.small = 0, 0

    @rule()
    @counted
    def fill_big(self):
        self.big = 5

    @rule()
    @counted
    def fill_small(self):
        self.small = 3

    @rule()
    @counted
    def empty_big(self):
        self.big = 0

    @rule()
    @counted
    def empty_small(self):
        self.small = 0

    @rule()
    @counted
    def big_to_small(self):
        poured = min(self.big, 3 - self.small)
        self.big, self.small = self.big - poured, self.small + poured

    @rule()
    @counted
    def small_to_big(self):
        poured = min(self.small, 5 - self.big)
        self.big, self.small = self.big + poured, self.small - poured

    @invariant()
    def not_four(self):
        assert self.big != 4


class Buffer(RuleBasedStateMachine):
    CAPACITY = 3

    def __init__(self):
        super().__init__()
        self.contents, self.write, self.read, self.size = [], 0, 0, 0

    def resize(self):
        self.size = (self.write - self.read + self.CAPACITY) % self.CAPACITY  # the bug: % (CAPACITY + 1)

    @rule(value=st.integers())
    @counted
    def push(self, value):
        if self.size < self.CAPACITY:
            self.contents.append(value)
            self.write = (self.write + 1) % (self.CAPACITY + 1)
        self.resize()

    @rule()
    @counted
    def pop(self):
        if self.size > 0 and self.contents:
            self.contents.pop(0)
            self.read = (self.read + 1) % (self.CAPACITY + 1)
        self.resize()

    @invariant()
    def size_is_count(self):
        assert self.size == len(self.contents)


class Registry(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.alive, self.registry = [], {}

    @rule()
    @counted
    def spawn(self):
        self.alive.append(len(self.alive) + 1)  # the bug: a living pid once a lower one died

    @rule(name=st.sampled_from(["a", "b", "c"]), pid=st.integers(0, 6))
    @counted
    def register(self, name, pid):
        if pid in self.alive and name not in self.registry and pid not in self.registry.values():
            self.registry[name] = pid

    @rule(name=st.sampled_from(["a", "b", "c"]))
    @counted
    def unregister(self, name):
        self.registry.pop(name, None)

    @rule(pid=st.integers(0, 6))
    @counted
    def kill(self, pid):
        if pid in self.alive:
            self.alive.remove(pid)
            self.registry = {name: p for name, p in self.registry.items() if p in self.alive}
        assert pid not in self.registry.values()


class Heap(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.items = []

    @rule(value=st.integers())
    @counted
    def push(self, value):
        self.items.append(value)
        child = len(self.items) - 1
        while child > 0 and self.items[(child - 1) // 2] > self.items[child]:
            parent = (child - 1) // 2
            self.items[child], self.items[parent] = self.items[parent], self.items[child]
            child = parent

    @rule()
    @counted
    def pop(self):
        if not self.items:
            return
        least = min(self.items)
        popped = self.items[0]
        last = self.items.pop()
        if self.items:
            self.items[0] = last
            parent = 0
            while 2 * parent + 1 < len(self.items) and self.items[2 * parent + 1] < self.items[parent]:
                left = 2 * parent + 1  # the bug: the right child is never looked at
                self.items[parent], self.items[left] = self.items[left], self.items[parent]
                parent = left
        assert popped == least


class KeyValue(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.log, self.keydir, self.version, self.found = [], {}, 0, None

    @rule(key=st.sampled_from(["a", "b", "c"]), value=st.integers())
    @counted
    def put(self, key, value):
        self.version += 1
        self.log.append((key, value, self.version))
        self.keydir[key] = self.version

    @rule(key=st.sampled_from(["a", "b", "c"]))
    @counted
    def get(self, key):
        version = self.keydir.get(key)
        self.found = next((value for (_, value, v) in self.log if v == version), None)
        assert self.found is not None or key not in self.keydir

    @rule()
    @counted
    def compact(self):
        kept, log = set(), []
        for entry in self.log:  # the bug: keeps each key's first entry, not its latest
            if entry[0] not in kept:
                kept.add(entry[0])
                log.append(entry)
        self.log = log


def wrap32(number):
    return (number + 2**31) % 2**32 - 2**31


class Overflow(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.total = 0

    @rule(amount=st.integers(-(2**31), 2**31 - 1))
    @counted
    def add(self, amount):
        old = self.total
        self.total = wrap32(self.total + amount)
        assert self.total == old + amount

    @rule()
    @counted
    def reset(self):
        self.total = 0


def unquote(file):
    text, characters = "", iter(file[1:])
    for character in characters:
        if character == '"':
            return text
        if character == "\\":
            text += next(characters, "")
        else:
            text += character
    return text


class Escaping(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.text, self.file = "", ""

    @rule(text=st.text())
    @counted
    def edit(self, text):
        self.text = text

    @rule()
    @counted
    def save_and_reload(self):
        old = self.text
        self.file = '"' + self.text + '"'  # the bug: quotes and backslashes not escaped
        self.text = unquote(self.file)
        assert self.text == old


class Lock(RuleBasedStateMachine):
    CODE = [3, 1, 4, 1, 2]

    def __init__(self):
        super().__init__()
        self.digits, self.matched, self.wrong, self.open = [], 0, False, False

    @rule(digit=st.integers(1, 4))
    @counted
    def press(self, digit):
        if self.open:
            return
        self.digits.append(digit)
        if not self.wrong and self.matched < len(self.CODE) and digit == self.CODE[self.matched]:
            self.matched += 1
        else:
            self.wrong = True
        self.open = not self.wrong and self.matched == len(self.CODE)

    @rule()
    @counted
    def reset(self):
        self.digits, self.wrong, self.open = [], False, False  # the bug: matched kept

    @invariant()
    def opens_only_with_the_code(self):
        assert not (self.open and self.digits != self.CODE)


MODELS = {
    "jugs": Jugs, "buffer": Buffer, "registry": Registry, "heap": Heap, "kv": KeyValue,
    "overflow": Overflow, "escaping": Escaping, "lock": Lock,
}


def attempt(machine, seed, examples, shrink):
    """Runs one search; returns (found, seconds, shrunk steps or None, steps run)."""
    hypothesis.core.global_force_seed = seed
    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    chosen = settings(
        max_examples=examples, stateful_step_count=50, database=None, deadline=None, phases=phases,
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    notes = []
    STEPS[0] = 0
    started = time.perf_counter()
    found = False
    with with_reporter(lambda _: None):
        try:
            run_state_machine_as_test(machine, settings=chosen)
        except AssertionError as error:
            found = True
            notes = getattr(error, "__notes__", [])
    seconds = time.perf_counter() - started
    # The falsifying steps are the error's notes: "state.add(amount=1)", … "state.teardown()",
    # with the invariants' checks between them.
    checks = ("state.teardown(", "state.not_four(", "state.size_is_count(", "state.opens_only_with_the_code(")
    shrunk = sum(1 for line in notes if line.startswith("state.") and not line.startswith(checks))
    return found, seconds, (shrunk if found and shrink else None), STEPS[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--examples", type=int, default=10000)
    parser.add_argument("models", nargs="*")
    options = parser.parse_args()
    print(f"hypothesis {hypothesis.__version__}")
    print(f"{'model':9} {'seed':>4}  {'found':5} {'find s':>7} {'total s':>7} {'shrunk':>6} {'steps/s':>8}")
    for name in options.models or list(MODELS):
        for seed in range(1, options.seeds + 1):
            found, find_seconds, _, steps = attempt(MODELS[name], seed, options.examples, shrink=False)
            rate = int(steps / find_seconds) if find_seconds > 0 else 0
            if found:
                _, total, shrunk, _ = attempt(MODELS[name], seed, options.examples, shrink=True)
                print(f"{name:9} {seed:>4}  {'yes':5} {find_seconds:7.2f} {total:7.2f} {shrunk:>6} {rate:>8}")
            else:
                print(f"{name:9} {seed:>4}  {'no':5} {find_seconds:7.2f} {'-':>7} {'-':>6} {rate:>8}")


if __name__ == "__main__":
    main()
