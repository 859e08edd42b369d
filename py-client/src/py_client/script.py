"""The step script (client-script/1, docs/client-drivers.md), read and checked whole before anything starts.

A script that only failed half-way would leave servers, databases and records half-made for evidence, so every
check the other drivers make is made here too, in the same order and with the same line
(vectors/rules/client-script.json).
"""

from __future__ import annotations

import json

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SCRIPT_FORMAT = "client-script/1"
MIN_TOKEN_LENGTH = 32
# As written in the URL: 127.1 reaches the same address, but a script should say what it means.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")

STEP_MEMBERS: dict[str, tuple[str, ...]] = {
    "connect": ("op", "connection", "server"),
    "list_tools": ("op", "connection"),
    "call": ("op", "connection", "tool", "arguments", "answer"),
    # ts_api names a TypeScript call form; the other drivers accept it and play the one form their SDK has.
    "call_once": ("op", "connection", "tool", "arguments", "input_responses", "state", "state_transform", "save_state",
                  "ts_api"),
    "status": ("op", "connection", "operation_id"),
    "parallel": ("op", "steps"),
    "close": ("op", "connection"),
}


class ScriptError(Exception):
    """A script the driver cannot run; str() is the whole stderr line."""


@dataclass(frozen=True)
class StdioServer:
    command: str
    args: tuple[str, ...]
    env: Mapping[str, str]
    transport: str = "stdio"


@dataclass(frozen=True)
class HttpServer:
    url: str
    token_env: str
    # repr=False: neither a log line nor an exception's message may print the token.
    token: str = field(repr=False)
    transport: str = "http"


@dataclass(frozen=True)
class Step:
    """One inner step; `id` is the record's step: an int at the top level, "3.1" inside a parallel step."""

    id: int | str
    op: str
    connection: str
    server: str | None = None
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    answer: dict[str, Any] | None = None
    input_responses: dict[str, Any] | None = None
    state: str | None = None
    state_transform: str = "none"
    save_state: str | None = None
    operation_id: str | None = None


@dataclass(frozen=True)
class Parallel:
    id: int
    steps: tuple[Step, ...]
    op: str = "parallel"


@dataclass(frozen=True)
class Script:
    servers: Mapping[str, StdioServer | HttpServer]
    request_timeout_ms: int | None
    version_mode: str
    steps: tuple[Step | Parallel, ...]

    @property
    def request_timeout_s(self) -> float | None:
        """request_timeout_ms as the SDK takes it; None keeps the SDK's default."""
        return None if self.request_timeout_ms is None else self.request_timeout_ms / 1000


class _Members:
    """One JSON object's members; an unknown one is refused, since a misspelt optional member would silently change
    what a step sends."""

    def __init__(self, where: str, members: dict[str, Any], allowed: tuple[str, ...]) -> None:
        self.where = where
        self.members = members
        for name in members:
            if name not in allowed:
                raise self.fail(f'unknown member "{name}"')

    def fail(self, problem: str) -> ScriptError:
        return ScriptError(f"script error: {self.where}{problem}")

    def has(self, name: str) -> bool:
        return name in self.members

    def string(self, name: str) -> str:
        if not self.has(name):
            raise self.fail(f"{name} is required")
        value = self.members[name]
        if not isinstance(value, str) or value == "":
            raise self.fail(f"{name} must be a non-empty string")
        return value

    def optional_string(self, name: str) -> str | None:
        return self.string(name) if self.has(name) else None

    def object(self, name: str) -> dict[str, Any]:
        if not self.has(name):
            raise self.fail(f"{name} is required")
        value = self.members[name]
        if not isinstance(value, dict):
            raise self.fail(f"{name} must be an object")
        return value

    def optional_object(self, name: str) -> dict[str, Any] | None:
        return self.object(name) if self.has(name) else None

    def one_of(self, name: str, allowed: tuple[str, ...], fallback: str) -> str:
        if not self.has(name):
            return fallback
        value = self.members[name]
        if not isinstance(value, str) or value not in allowed:
            raise self.fail(f"{name} must be one of " + ", ".join(f'"{a}"' for a in allowed))
        return value


def _reject_constant(name: str) -> Any:
    # NaN and Infinity are not JSON, although Python's reader accepts them by default.
    raise ValueError(f"{name} is not JSON")


def parse_script(text: str, environment: Mapping[str, str]) -> Script:
    """`environment` is the driver's own: bearer tokens are read from it while the script is checked."""
    try:
        document = json.loads(text, parse_constant=_reject_constant)
    except ValueError as e:
        raise ScriptError(f"script error: not JSON ({e})") from None
    if not isinstance(document, dict):
        raise ScriptError("script error: the script must be a JSON object")
    top = _Members("", document, ("format", "servers", "request_timeout_ms", "version_mode", "steps"))
    # The tag first: a script of another format version must be named as such, not by whichever member differs.
    if document.get("format") != SCRIPT_FORMAT:
        raise top.fail(f'format must be "{SCRIPT_FORMAT}" (got {json.dumps(document.get("format"))})')
    servers = _servers(top.object("servers"), environment)
    if not top.has("request_timeout_ms"):
        raise top.fail("request_timeout_ms is required (null for the SDK default)")
    timeout = document["request_timeout_ms"]
    if timeout is not None and not (type(timeout) is int and 0 < timeout <= 2**53 - 1):
        raise top.fail("request_timeout_ms must be null or a positive whole number of milliseconds")
    if not top.has("version_mode"):
        raise top.fail("version_mode is required")
    version_mode = top.one_of("version_mode", ("pin", "auto", "default"), "pin")
    raw_steps = document.get("steps")
    if not isinstance(raw_steps, list):
        raise top.fail("steps must be an array")
    opened: set[str] = set()
    saved: set[str] = set()
    steps = tuple(_step(raw, index, servers, opened, saved) for index, raw in enumerate(raw_steps))
    return Script(servers, timeout, version_mode, steps)


def _servers(raw: dict[str, Any], environment: Mapping[str, str]) -> dict[str, StdioServer | HttpServer]:
    servers: dict[str, StdioServer | HttpServer] = {}
    for name, spec in raw.items():
        where = f"servers.{name}: "
        if not isinstance(spec, dict):
            raise ScriptError(f"script error: {where}must be an object")
        servers[name] = _http_server(where, spec, environment) if "url" in spec else _stdio_server(where, spec)
    return servers


def _stdio_server(where: str, spec: dict[str, Any]) -> StdioServer:
    members = _Members(where, spec, ("command", "env"))
    command = spec.get("command")
    if (not isinstance(command, list) or not command or not all(isinstance(p, str) for p in command)
            or command[0] == ""):
        raise members.fail("command must be a non-empty array of strings")
    env: dict[str, str] = {}
    for variable, value in (members.optional_object("env") or {}).items():
        if not isinstance(value, str):
            raise members.fail(f"env.{variable} must be a string")
        env[variable] = value
    return StdioServer(command[0], tuple(command[1:]), env)


def _http_server(where: str, spec: dict[str, Any], environment: Mapping[str, str]) -> HttpServer:
    """The token is read now, so a missing or unusable one stops the driver before any request; no message holds it."""
    members = _Members(where, spec, ("url", "bearer_token_env"))
    url = _loopback_url(members, members.string("url"))
    variable = members.string("bearer_token_env")
    token = environment.get(variable)
    if token is None:
        raise members.fail(f"bearer_token_env {variable} is not set in the driver's environment")
    if len(token) < MIN_TOKEN_LENGTH:
        raise members.fail(f"bearer_token_env {variable} holds a token shorter than {MIN_TOKEN_LENGTH} characters")
    if not re.fullmatch(r"[\x21-\x7e]+", token):
        raise members.fail(f"bearer_token_env {variable} holds a character other than printable ASCII (no spaces)")
    return HttpServer(url, variable, token)


def _loopback_url(members: _Members, text: str) -> str:
    """Loopback only, the host checked as written (a script must never send a token or a write to another machine)."""
    if re.search(r"[\x00-\x20\x7f]", text):
        raise members.fail("url is not a URL")
    written = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)", text)
    if written is None or written.group(1).lower() != "http":
        raise members.fail("url must be an http:// URL")
    authority = written.group(2)
    if "@" in authority:
        raise members.fail("url must not carry user information")
    if authority.startswith("["):
        end = authority.find("]")
        host, rest = (authority[: end + 1], authority[end + 1:]) if end >= 0 else ("", "")
    else:
        host, _, port_text = authority.partition(":")
        rest = ":" + port_text if _ else ""
    if host.lower() not in LOOPBACK_HOSTS:
        raise members.fail("url must name a loopback host (127.0.0.1, localhost or [::1])" + (f", not {host}" if host else ""))
    if rest:
        port = rest[1:] if rest.startswith(":") else None
        if port is None or not port.isdigit() or not port.isascii():
            raise members.fail("url is not a URL")
        if int(port) == 0 or int(port) > 65535:
            raise members.fail("url has port 0, outside 1..65535" if int(port) == 0 else "url is not a URL")
    return text


def _step(raw: Any, index: int, servers: Mapping[str, Any], opened: set[str], saved: set[str]) -> Step | Parallel:
    if not isinstance(raw, dict):
        raise ScriptError(f"script error: step {index}: must be an object")
    if raw.get("op") == "parallel":
        return _parallel(raw, index, servers, opened, saved)
    return _inner(raw, index, str(index), servers, opened, saved, opened, saved)


def _parallel(raw: dict[str, Any], index: int, servers: Mapping[str, Any], opened: set[str], saved: set[str]) -> Parallel:
    """Inner steps run at once: each sees what the steps before the parallel step left; what they open, close or
    save counts from the next step on."""
    members = _Members(f"step {index} (parallel): ", raw, STEP_MEMBERS["parallel"])
    inner = raw.get("steps")
    if not isinstance(inner, list) or not inner:
        raise members.fail("steps must be a non-empty array")
    before_open, before_saved = set(opened), set(saved)
    used: dict[str, str] = {}
    steps: list[Step] = []
    for position, child in enumerate(inner):
        label = f"{index}.{position}"
        if not isinstance(child, dict):
            raise ScriptError(f"script error: step {label}: must be an object")
        if child.get("op") == "parallel":
            raise ScriptError(f"script error: step {label} (parallel): a parallel step cannot contain another one")
        step = _inner(child, label, label, servers, before_open, before_saved, opened, saved)
        if step.connection in used:
            raise ScriptError(f'script error: step {label} ({step.op}): connection "{step.connection}" is already used'
                              f" by step {used[step.connection]} of this parallel step")
        used[step.connection] = label
        steps.append(step)
    return Parallel(index, tuple(steps))


def _inner(raw: dict[str, Any], step_id: int | str, label: str, servers: Mapping[str, Any], open_before: set[str],
           saved_before: set[str], open_after: set[str], saved_after: set[str]) -> Step:
    if "op" not in raw:
        raise ScriptError(f"script error: step {label}: op is required")
    op = raw["op"]
    if not isinstance(op, str) or op not in STEP_MEMBERS:
        raise ScriptError(f"script error: step {label}: unknown op {json.dumps(op)}")
    members = _Members(f"step {label} ({op}): ", raw, STEP_MEMBERS[op])
    connection = members.string("connection")
    if op == "connect":
        server = members.string("server")
        if server not in servers:
            raise members.fail(f'unknown server "{server}"')
        if connection in open_before:
            raise members.fail(f'connection "{connection}" is already connected')
        open_after.add(connection)
        return Step(step_id, op, connection, server=server)
    if connection not in open_before:
        raise members.fail(f'connection "{connection}" is used before it is connected')
    if op == "list_tools":
        return Step(step_id, op, connection)
    if op == "close":
        open_after.discard(connection)
        return Step(step_id, op, connection)
    if op == "status":
        return Step(step_id, op, connection, operation_id=members.string("operation_id"))
    if op == "call":
        return Step(step_id, op, connection, tool=members.string("tool"), arguments=members.object("arguments"),
                    answer=members.optional_object("answer"))
    tool = members.string("tool")
    arguments = members.object("arguments")
    input_responses = members.optional_object("input_responses")
    state = members.optional_string("state")
    if state is not None and state not in saved_before:
        raise members.fail(f'state "{state}" is used before it is saved')
    if state is None and members.has("state_transform"):
        raise members.fail("state_transform needs a state")
    transform = members.one_of("state_transform", ("none", "tamper"), "none")
    save_state = members.optional_string("save_state")
    members.one_of("ts_api", ("callTool", "request"), "callTool")
    if save_state is not None:
        saved_after.add(save_state)
    return Step(step_id, op, connection, tool=tool, arguments=arguments, input_responses=input_responses, state=state,
                state_transform=transform, save_state=save_state)


def tamper(token: str) -> str:
    """The seed's tamper, as case 05 applies it: the middle character becomes "A", or "B" if it already is."""
    middle = len(token) // 2
    replacement = "B" if token[middle:middle + 1] == "A" else "A"
    return token[:middle] + replacement + token[middle + 1:]


