"""Plays a checked script through the Python SDK (`mcp` 2.3.0), one client record per step.

The driver never judges: whatever the SDK returns or raises is the step's record, and the next step runs regardless.
Each connection is an `mcp.Client` (the SDK's high-level client), entered and left by a task of its own: anyio ties a
context's exit to the task that entered it, and a script closes a connection in a later step than the one that opened
it, sometimes from a parallel step's task.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Awaitable
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.abc
import httpx2
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from .script import HttpServer, Parallel, Script, StdioServer, Step, tamper

STATUS_TOOL = "get_operation_status"
PINNED_VERSION = "2026-07-28"

API = {
    "connect": "Client(StdioServerParameters(..), mode=.., elicitation_callback=..), async with client",
    "connect_http": "Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers={Authorization})),"
                    " mode=.., elicitation_callback=..), async with client",
    "list_tools": "client.list_tools()",
    "call": "client.call_tool(name, arguments)",
    "call_once": "client.session.call_tool(name, arguments, input_responses=.., request_state=.., allow_input_required=True)",
    "close": "leave the client's async with",
}


class StepNotRunnable(Exception):
    """A step whose precondition an earlier step did not deliver (its connect raised): nothing is sent."""


@dataclass
class Reply:
    outcome: str
    result: dict[str, Any] | None = None
    threw: dict[str, Any] | None = None
    saved_state: str | None = None
    request_state: str | None = None


def as_json(value: Any) -> Any:
    """A value as JSON, never raising: error data may hold anything."""
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return str(value)


def without_request_states(value: Any) -> Any:
    """Every `requestState` becomes its length: a state is a bearer credential for the continuation."""
    if isinstance(value, list):
        return [without_request_states(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for name, member in value.items():
        if name == "requestState":
            out["request_state_length"] = len(member) if isinstance(member, str) else None
        else:
            out[name] = without_request_states(member)
    return out


def describe_thrown(error: BaseException) -> dict[str, Any]:
    code = getattr(error, "code", None)
    data = getattr(error, "data", None) if hasattr(error, "error") else None
    cause: BaseException | None = error.__cause__
    if cause is None and isinstance(error, BaseExceptionGroup) and error.exceptions:
        # anyio's task groups wrap what a task raised; the first one is what happened
        cause = error.exceptions[0]
    return {
        "type": type(error).__name__,
        "code": code if isinstance(code, (int, str)) and not isinstance(code, bool) else None,
        "message": str(error),
        "data": without_request_states(as_json(data)),
        "cause": None if cause is None else f"{type(cause).__name__}: {cause}",
    }


def tool_reply(result: Any, save_as: str | None = None) -> Reply:
    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    state = dumped.get("requestState")
    outcome = ("input_required" if dumped.get("resultType") == "input_required"
               else "tool_error" if dumped.get("isError") is True else "result")
    return Reply(
        outcome,
        result={
            "resultType": dumped.get("resultType"),
            "isError": dumped.get("isError"),
            "structuredContent": dumped.get("structuredContent"),
            "content": dumped.get("content"),
            "request_state_length": len(state) if isinstance(state, str) else None,
        },
        # Only an input_required answer's state is saved: a complete result has nothing to continue.
        saved_state=save_as if outcome == "input_required" and isinstance(state, str) else None,
        request_state=state if outcome == "input_required" else None,
    )


class Connection:
    def __init__(self, name: str, spec: StdioServer | HttpServer, script: Script) -> None:
        self.name = name
        self.spec = spec
        self.script = script
        # The answer of the `call` step in progress; None declines.
        self.answer: dict[str, Any] | None = None
        self.client: Client | None = None
        self._entered = anyio.Event()
        self._leave = anyio.Event()
        self._left = anyio.Event()
        self._failure: BaseException | None = None

    async def _elicit(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        if self.answer is None:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content=self.answer)

    def _client(self) -> Client:
        mode: dict[str, Any] = {}
        if self.script.version_mode == "pin":
            mode["mode"] = PINNED_VERSION
        elif self.script.version_mode == "auto":
            mode["mode"] = "auto"
        # "default": no mode at all, what an application that never heard of negotiation gets (the SDK's "auto")
        if isinstance(self.spec, HttpServer):
            http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {self.spec.token}"})
            server: Any = streamable_http_client(self.spec.url, http_client=http)
        else:
            # The SDK merges `env` over a default environment of a few variables; the contract is the driver's whole
            # environment plus the script's, so both are passed.
            server = StdioServerParameters(command=self.spec.command, args=list(self.spec.args),
                                           env={**os.environ, **self.spec.env})
        return Client(server, read_timeout_seconds=self.script.request_timeout_s, elicitation_callback=self._elicit, **mode)

    async def own(self) -> None:
        """Enters the client, holds it until `leave`, leaves it; all in this one task."""
        try:
            async with self._client() as client:
                self.client = client
                self._entered.set()
                await self._leave.wait()
        except BaseException as e:  # noqa: BLE001 - the failure is the connect step's (or the close step's) record
            self._failure = e
            if isinstance(e, anyio.get_cancelled_exc_class()):
                raise
        finally:
            self.client = None
            self._entered.set()
            self._left.set()

    def _raise_failure(self) -> None:
        """Raises what `own` caught, once: reported by the connect step if it failed there, else by the close step."""
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure

    async def connected(self) -> None:
        await self._entered.wait()
        self._raise_failure()

    def live(self) -> Client:
        if self.client is None:
            raise StepNotRunnable(f"connection {self.name} is not connected (its connect step raised, or it ended)")
        return self.client

    async def close(self) -> None:
        self._leave.set()
        await self._left.wait()
        self._raise_failure()


class Run:
    def __init__(self, script: Script, records_path: str, sdk_version: str, started: float) -> None:
        self.script = script
        self.records_path = records_path
        self.sdk_version = sdk_version
        self.started = started
        self.connections: dict[str, Connection] = {}
        self.states: dict[str, str] = {}

    async def play(self) -> None:
        async with anyio.create_task_group() as group:
            self.group = group
            for step in self.script.steps:
                if isinstance(step, Parallel):
                    # Every inner step is started before any can be awaited: that is the barrier.
                    async with anyio.create_task_group() as inner:
                        for child in step.steps:
                            inner.start_soon(self.inner, child)
                else:
                    await self.inner(step)
            for connection in self.connections.values():
                connection._leave.set()

    def now_ms(self) -> int:
        return round((time.monotonic() - self.started) * 1000)

    async def inner(self, step: Step) -> None:
        if step.op == "connect":
            spec = self.script.servers[step.server]
            connection = Connection(step.connection, spec, self.script)
            previous = self.connections.get(step.connection)
            if previous is not None:
                previous._leave.set()
            self.connections[step.connection] = connection
            sent: dict[str, Any] = {"server": step.server, "version_mode": self.script.version_mode}
            if isinstance(spec, HttpServer):
                sent["url"] = spec.url
                sent["bearer_token_env"] = spec.token_env

            async def connect() -> Reply:
                self.group.start_soon(connection.own)
                await connection.connected()
                return Reply("connected")

            await self.timed(step, API["connect_http" if isinstance(spec, HttpServer) else "connect"], sent, connect,
                             transport=spec.transport)
        elif step.op == "list_tools":
            connection = self.connections[step.connection]

            async def list_tools() -> Reply:
                listed = await connection.live().list_tools()
                return Reply("listed", result={"tools": [t.model_dump(mode="json", by_alias=True, exclude_none=True)
                                                         for t in listed.tools]})

            await self.timed(step, API["list_tools"], None, list_tools)
        elif step.op == "close":
            connection = self.connections[step.connection]

            async def close() -> Reply:
                await connection.close()
                return Reply("closed")

            await self.timed(step, API["close"], None, close)
        elif step.op in ("call", "status"):
            await self.call(step)
        else:
            await self.call_once(step)

    async def call(self, step: Step) -> None:
        connection = self.connections[step.connection]
        tool = STATUS_TOOL if step.op == "status" else step.tool
        arguments = {"operation_id": step.operation_id} if step.op == "status" else step.arguments
        answer = step.answer if step.op == "call" else None
        sent = {"tool": tool, "arguments": arguments, "answer": answer, "input_responses": None, "request_state": "absent"}

        async def call() -> Reply:
            client = connection.live()
            connection.answer = answer
            try:
                return tool_reply(await client.call_tool(tool, arguments, read_timeout_seconds=self.script.request_timeout_s))
            finally:
                connection.answer = None

        await self.timed(step, API["call"], sent, call)

    async def call_once(self, step: Step) -> None:
        connection = self.connections[step.connection]
        request_state: str | None = None
        shown = "absent"
        if step.state is not None:
            saved = self.states.get(step.state)
            if saved is None:
                # The script saw a save_state earlier, but that step got no input_required answer: nothing to send.
                self.write(step, None, self.sent_once(step, "absent"), self.now_ms(), 0, Reply("threw", threw={
                    "type": "StepNotRunnable", "code": None, "data": None, "cause": None,
                    "message": f'no requestState was saved under "{step.state}" (the saving step got no input_required answer)'}))
                return
            request_state = tamper(saved) if step.state_transform == "tamper" else saved
            shown = "tampered" if step.state_transform == "tamper" else "present"

        async def once() -> Reply:
            result = await connection.live().session.call_tool(
                step.tool, step.arguments, read_timeout_seconds=self.script.request_timeout_s, input_responses=step.input_responses,
                request_state=request_state, allow_input_required=True)
            return tool_reply(result, step.save_state)

        reply = await self.timed(step, API["call_once"], self.sent_once(step, shown), once)
        if reply.saved_state is not None and reply.request_state is not None:
            self.states[reply.saved_state] = reply.request_state

    @staticmethod
    def sent_once(step: Step, request_state: str) -> dict[str, Any]:
        return {"tool": step.tool, "arguments": step.arguments, "answer": None, "input_responses": step.input_responses,
                "request_state": request_state}

    async def timed(self, step: Step, api: str, sent: dict[str, Any] | None, call: Callable[[], Awaitable[Reply]],
                    transport: str | None = None) -> Reply:
        started = self.now_ms()
        clock = time.monotonic()
        try:
            reply = await call()
        except Exception as e:  # noqa: BLE001 - what the SDK raised is the record
            reply = Reply("threw", threw=describe_thrown(e))
        self.write(step, api, sent, started, round((time.monotonic() - clock) * 1000), reply, transport)
        return reply

    def write(self, step: Step, api: str | None, sent: dict[str, Any] | None, started: int, elapsed: int, reply: Reply,
              transport: str | None = None) -> None:
        record: dict[str, Any] = {"format": "client-record/1", "client": "python", "sdk_version": self.sdk_version,
                                  "step": step.id, "op": step.op, "connection": step.connection}
        if transport is not None:
            record["transport"] = transport
        record.update({"api": api, "sent": sent, "outcome": reply.outcome, "result": reply.result,
                       "threw": reply.threw, "saved_state": reply.saved_state, "started_ms": started,
                       "elapsed_ms": elapsed})
        # One write per line, as soon as the step ends: if the driver dies later, what already happened is on disk.
        with open(self.records_path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
