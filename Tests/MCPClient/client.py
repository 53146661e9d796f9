#!/usr/bin/env python3
"""Drives `storesh mcp` with the reference Python MCP client (the `mcp` package), an
independent implementation of the protocol: the handshake, tools (send, a tool made from
an action, state, log, goto, expect, load), a tool error for a bad action, resources, and
notifications (the tool list after a load, a state change made by an effect).

Usage: client.py STORESH [--transcript FILE]
Exits 1 if any check fails, saying which; writes the session as a transcript.
"""
import argparse
import json
import sys

import anyio
from pydantic import AnyUrl

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

failures = []
transcript = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def show(direction, text):
    transcript.append(f"{direction} {text}")


def result_text(result):
    return "\n".join(item.text for item in result.content if item.type == "text")


class Notifications:
    """What the server sent on its own, and a way to wait for one of them."""

    def __init__(self):
        self.seen = []
        self.problems = []
        self.arrived = anyio.Event()

    async def handle(self, message):
        if isinstance(message, Exception):
            # A line on stdout that is not a message: storesh must keep stdout for the protocol.
            self.problems.append(repr(message))
            return
        if isinstance(message, types.ServerNotification):
            root = message.root
            entry = root.method
            if isinstance(root, types.ResourceUpdatedNotification):
                entry += " " + str(root.params.uri)
            self.seen.append(entry)
            show("<-", "notification " + entry)
            self.arrived.set()
            self.arrived = anyio.Event()

    async def wait_for(self, entry, seconds=10):
        with anyio.move_on_after(seconds):
            while entry not in self.seen:
                await self.arrived.wait()
        return entry in self.seen


async def call(session, name, arguments=None):
    show("->", f"tools/call {name} {json.dumps(arguments or {})}")
    result = await session.call_tool(name, arguments or {})
    marker = " (isError)" if result.isError else ""
    show("<-", f"{name}{marker}: " + result_text(result).replace("\n", "\n     "))
    return result


async def read(session, uri):
    show("->", f"resources/read {uri}")
    result = await session.read_resource(AnyUrl(uri))
    text = result.contents[0].text
    show("<-", text)
    return text


async def run(storesh):
    notifications = Notifications()
    server = StdioServerParameters(command=storesh, args=["mcp", "--plugin", "Counter"])
    async with stdio_client(server) as (read_stream, write_stream):
        async with ClientSession(read_stream, write_stream, message_handler=notifications.handle) as session:
            show("->", "initialize")
            init = await session.initialize()
            show("<-", f"{init.serverInfo.name} {init.serverInfo.version}, protocol {init.protocolVersion}")
            check(init.serverInfo.name == "storesh", "the server is called storesh")
            check(init.capabilities.tools is not None and init.capabilities.tools.listChanged, "tools with listChanged")
            check(init.capabilities.resources is not None and init.capabilities.resources.subscribe, "resources with subscribe")

            show("->", "tools/list")
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            show("<-", ", ".join(tools))
            for name in ["send", "state", "log", "goto", "undo", "redo", "reset", "expect", "load", "use", "stub", "advance", "wait", "run", "action_increment", "action_setCount"]:
                check(name in tools, f"tools/list has {name}")
            if "action_setCount" in tools:
                schema = tools["action_setCount"].inputSchema
                check(schema["properties"]["arg1"]["type"] == "integer", "action_setCount takes an integer")
                check(schema.get("required") == ["arg1"], "action_setCount's argument is required")

            result = await call(session, "send", {"action": "increment"})
            check(not result.isError, "send increment succeeds")
            check("count: 0 → 1" in result_text(result), "send answers the diff as text")
            record = result.structuredContent or {}
            check(record.get("ok") is True and record["outputs"][0]["diff"][0]["path"] == "count", "send answers the diff as a record")

            result = await call(session, "action_setCount", {"arg1": 41})
            check(not result.isError and "count: 1 → 41" in result_text(result), "the generated tool action_setCount sends setCount 41")

            result = await call(session, "state", {"path": "count"})
            check(result_text(result) == "41", "state at count is 41")

            result = await call(session, "send", {"action": "setCount \"many\""})
            check(result.isError is True, "a bad action is a tool error")
            check("should be int" in result_text(result), "the error is the shell's message")
            check((result.structuredContent or {}).get("column") == 10, "the error gives its column")

            result = await call(session, "action_setCount", {"arg1": "many"})
            check(result.isError is True and "should be an int" in result_text(result), "a wrong argument type is a tool error")

            result = await call(session, "expect", {"path": "count", "op": ">", "value": 50})
            check(result.isError is True, "a failed expect is a tool error")
            result = await call(session, "expect", {"path": "count", "op": "==", "value": 41})
            check(not result.isError, "expect count == 41 holds")

            check(json.loads(await read(session, "storesh://state")) == {"count": 41}, "storesh://state is the state as JSON")
            check(await read(session, "storesh://state/count") == "41", "storesh://state/count is 41")

            result = await call(session, "log", {"all": True})
            check("setCount 41" in result_text(result), "log lists the actions")
            result = await call(session, "goto", {"position": 1})
            check(not result.isError and "count: 41 → 1" in result_text(result), "goto 1 goes back to count 1")

            await call(session, "load", {"plugin": "Todos"})
            check(await notifications.wait_for("notifications/tools/list_changed"), "a load tells the client the tools changed")
            show("->", "tools/list")
            names = [tool.name for tool in (await session.list_tools()).tools]
            show("<-", ", ".join(names))
            check("action_toggleLater" in names and "action_increment" not in names, "the tools are Todos' actions now")

            await call(session, "action_add", {"title": "milk", "priority": 2})
            todo_id = json.loads(await read(session, "storesh://state/todos%5B0%5D.id"))
            show("->", "resources/subscribe storesh://state")
            await session.subscribe_resource(AnyUrl("storesh://state"))
            # An effect that toggles the todo after 300 ms: the state changes between calls.
            result = await call(session, "action_toggleLater", {"id": todo_id, "milliseconds": 300})
            check("effect" in result_text(result), "the effect is said to start")
            notifications.seen.clear()
            check(await notifications.wait_for("notifications/resources/updated storesh://state"), "an effect's change to the state is notified")
            check(json.loads(await read(session, "storesh://state/todos%5B0%5D.done")) is True, "the effect toggled the todo")

            result = await call(session, "action_todos_toggle", {"key": todo_id})
            check(not result.isError and "done: true → false" in result_text(result), "a keyed action's tool takes the key")

            timeline = json.loads(await read(session, "storesh://timeline"))
            kinds = [entry["kind"] for entry in timeline["entries"]]
            check("effect" in kinds and "applied" in kinds, "the timeline has effects and what they applied")

            try:
                await session.call_tool("no_such_tool", {})
                check(False, "an unknown tool is refused")
            except Exception as error:  # McpError: a protocol error, and the session goes on
                show("<-", f"no_such_tool: error {error}")
            result = await call(session, "state", {"path": "todos[0].title"})
            check(result_text(result) == '"milk"', "the session goes on after a refusal")
            check(not notifications.problems, f"stdout carries only messages: {notifications.problems}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("storesh")
    parser.add_argument("--transcript")
    options = parser.parse_args()
    try:
        anyio.run(run, options.storesh)
    finally:
        if options.transcript:
            with open(options.transcript, "w") as file:
                file.write("\n".join(transcript) + "\n")
    if failures:
        print(f"{len(failures)} MCP client check(s) failed", file=sys.stderr)
        sys.exit(1)
    print(f"MCP client: every check passed ({len(transcript)} transcript lines)")


if __name__ == "__main__":
    main()
