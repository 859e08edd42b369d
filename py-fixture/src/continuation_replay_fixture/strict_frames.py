"""The strict frame gate between stdin and the Python SDK's stdio transport, the twin of ts-fixture/src/strict-frames.ts
and frame-verdict.ts (shared table vectors/rules/strict-frames.json, whose TypeScript verdicts it gives).

Without it the SDK's stdio_server (mcp 2.3.0) decodes stdin with errors="replace" (invalid UTF-8 silently becomes
U+FFFD and the request is processed), drops without any reply every line that is not JSON or not a valid JSON-RPC
message (a request with an id is never answered), takes an integer id beyond 2^53-1, and processes a request that
also carries a `result` member. docs/python-fixture.md lists what it did with every case of the table.

Each line (at most 8 MiB; a longer one is answered once and discarded without being buffered) is judged:
not UTF-8 or not JSON -> -32700 without id; not an object -> -32600 without id; an id that is not a string or an
integer within +-(2^53-1) spelt as an integer -> -32600 without id; jsonrpc not "2.0", no string method, a result or
error member, params not an object -> -32600 with the id; params._meta not an object -> -32602 with the id; an
envelope protocolVersion that is a string other than 2026-07-28 -> -32022 with the supported versions; an `initialize`
request of the handshake era (its params carry `protocolVersion`) -> -32022 too, since the SDK would open a legacy
session for it and has no option to refuse that era (docs/findings/python-sdk-2.3.0.md, 4). An invalid
notification is dropped. Unknown top-level members are cut out (every other byte as sent); valid lines reach the SDK
byte for byte. The gate's lines and the SDK's are each one whole write of one line to the same stdout.
"""

import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable, List, Optional, Union

import anyio

PROTOCOL_VERSION = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
MAX_LINE_BYTES = 8 * 1024 * 1024
MAX_SAFE = 9007199254740991
_REQUEST_MEMBERS = frozenset(("jsonrpc", "id", "method", "params"))
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
_WHITESPACE = " \t\n\r"

# A message nested 10,000 deep must parse here (the SDK behind decides what it does with it).
if sys.getrecursionlimit() < 20000:
    sys.setrecursionlimit(20000)


def error_line(id_text: Optional[str], code: int, message: str, data: Any = None) -> str:
    """An error line; `id_text` is the id's JSON text, or None when the id cannot be read."""
    error = {"code": code, "message": message} if data is None else {"code": code, "message": message, "data": data}
    body = json.dumps(error, ensure_ascii=False, separators=(",", ":"))
    if id_text is None:
        return f'{{"jsonrpc":"2.0","error":{body}}}'
    return f'{{"jsonrpc":"2.0","id":{id_text},"error":{body}}}'


PARSE_ERROR = error_line(None, -32700, "Parse error")
INVALID_REQUEST = error_line(None, -32600, "Invalid Request")
TOO_LARGE = error_line(None, -32600, "Invalid Request: line longer than 8 MiB")


@dataclass(frozen=True)
class Forward:
    line: bytes


@dataclass(frozen=True)
class Reply:
    line: str


@dataclass(frozen=True)
class Drop:
    pass


Verdict = Union[Forward, Reply, Drop]


@dataclass(frozen=True)
class Member:
    name: str
    value: str  # the value's source text, exactly as sent
    start: int
    end: int


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _parse(text: str) -> Any:
    """json.loads as strict as JSON.parse: no NaN or Infinity. Numbers are not needed as values (ids are read from
    their source text), so no literal is ever converted (a 5,000-digit integer is still JSON)."""
    return json.loads(text, parse_constant=_refuse_constant, parse_int=lambda s: 0, parse_float=lambda s: 0.0)


def valid_id(source: str) -> Optional[str]:
    """The id's JSON text if it is a valid JSON-RPC id for MCP (a string, or an integer spelt as one and safe)."""
    if source.startswith('"'):
        return source
    if _INTEGER.fullmatch(source) is None:
        return None
    value = int(source)
    return str(value) if abs(value) <= MAX_SAFE else None


def _skip_whitespace(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def _skip_string(text: str, at: int) -> int:
    at += 1
    while at < len(text):
        c = text[at]
        if c == "\\":
            at += 2
        elif c == '"':
            return at + 1
        else:
            at += 1
    raise ValueError("unterminated string")


def _skip_value(text: str, at: int) -> int:
    c = text[at]
    if c == '"':
        return _skip_string(text, at)
    if c in "{[":
        depth = 0
        while at < len(text):
            d = text[at]
            if d == '"':
                at = _skip_string(text, at)
                continue
            if d in "{[":
                depth += 1
            elif d in "}]":
                depth -= 1
                if depth == 0:
                    return at + 1
            at += 1
        raise ValueError("unterminated value")
    while at < len(text) and text[at] not in _WHITESPACE and text[at] not in ",}]":
        at += 1
    return at


def top_level_members(text: str) -> List[Member]:
    """The members of an object text already accepted by the parser, in source order, duplicates included; an
    iterative scan, so deep nesting costs no stack."""
    members: List[Member] = []
    at = _skip_whitespace(text, 0)
    if text[at] != "{":
        raise ValueError("not an object")
    at = _skip_whitespace(text, at + 1)
    if text[at] == "}":
        return members
    while True:
        start = at
        name_end = _skip_string(text, at)
        name = json.loads(text[start:name_end])
        at = _skip_whitespace(text, name_end) + 1  # the colon
        value_start = _skip_whitespace(text, at)
        value_end = _skip_value(text, value_start)
        members.append(Member(name, text[value_start:value_end], start, value_end))
        at = _skip_whitespace(text, value_end)
        if text[at] == "}":
            return members
        at = _skip_whitespace(text, at + 1)  # the comma


def _last_member(members: List[Member], name: str) -> Optional[Member]:
    for member in reversed(members):
        if member.name == name:
            return member
    return None


def _frame_problem(message: dict) -> Optional[Callable[[str], str]]:
    """None if the frame (request or notification) may reach the SDK, else the error it gets, given its id."""
    if message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str) or "result" in message or "error" in message:
        return lambda id_text: error_line(id_text, -32600, "Invalid Request")
    if "params" not in message:
        return None
    params = message["params"]
    if not isinstance(params, dict):
        return lambda id_text: error_line(id_text, -32600, "Invalid Request")
    if "_meta" not in params:
        return None
    meta = params["_meta"]
    if not isinstance(meta, dict):
        return lambda id_text: error_line(id_text, -32602, "params._meta must be an object")
    version = meta.get(VERSION_KEY)
    if isinstance(version, str) and version != PROTOCOL_VERSION:
        data = {"supported": [PROTOCOL_VERSION], "requested": version}
        return lambda id_text: error_line(id_text, -32022, "Unsupported protocol version", data)
    return None


def _unknown_members_cut(line: bytes, text: str, members: List[Member]) -> Verdict:
    if all(m.name in _REQUEST_MEMBERS for m in members):
        return Forward(line)
    kept = [text[m.start : m.end] for m in members if m.name in _REQUEST_MEMBERS]
    return Forward(("{" + ",".join(kept) + "}").encode("utf-8", "surrogatepass"))


def judge_frame(line: bytes) -> Verdict:
    """What the gate does with one line (without its newline). Pure: bytes in, verdict out."""
    try:
        text = line.decode("utf-8")  # strict; a leading BOM stays a character, which the parser refuses
        message = _parse(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return Reply(PARSE_ERROR)
    if not isinstance(message, dict):
        return Reply(INVALID_REQUEST)
    members = top_level_members(text)
    id_member = _last_member(members, "id")
    has_method = "method" in message
    if id_member is None:
        if has_method:
            return _unknown_members_cut(line, text, members) if _frame_problem(message) is None else Drop()
        return Forward(line) if ("result" in message or "error" in message) else Reply(INVALID_REQUEST)
    if not has_method and ("result" in message or "error" in message):
        return Forward(line)
    id_text = valid_id(id_member.value)
    if id_text is None:
        return Reply(INVALID_REQUEST)
    problem = _frame_problem(message)
    if problem is not None:
        return Reply(problem(id_text))
    handshake = _handshake_initialize(message)
    if handshake is not None:
        return Reply(handshake(id_text))
    return _unknown_members_cut(line, text, members)


def _handshake_initialize(message: dict) -> Optional[Callable[[str], str]]:
    """The refusal of a handshake-era `initialize` (stdio only: over HTTP the version header decides, in
    http_server._legacy_refusal), or None. 2026-07-28 has no initialize; this server speaks nothing else."""
    params = message.get("params")
    if message.get("method") != "initialize" or not isinstance(params, dict) or "protocolVersion" not in params:
        return None
    requested = params["protocolVersion"] if isinstance(params["protocolVersion"], str) else ""
    data = {"supported": [PROTOCOL_VERSION], "requested": requested}
    return lambda id_text: error_line(id_text, -32022, "Unsupported protocol version", data)


class LineSplitter:
    """Splits a byte stream into lines of at most `limit` bytes; an over-long line is reported once and skipped."""

    def __init__(self, limit: int, on_line: Callable[[bytes], None], on_too_long: Callable[[], None]) -> None:
        self._limit = limit
        self._on_line = on_line
        self._on_too_long = on_too_long
        self._parts: List[bytes] = []
        self._length = 0
        self._discarding = False

    def push(self, chunk: bytes) -> None:
        at = 0
        while at <= len(chunk):
            newline = chunk.find(b"\n", at)
            piece = chunk[at : len(chunk) if newline == -1 else newline]
            if not self._discarding:
                if self._length + len(piece) > self._limit:
                    self._parts, self._length, self._discarding = [], 0, True
                    self._on_too_long()
                elif piece:
                    self._parts.append(piece)
                    self._length += len(piece)
            if newline == -1:
                return
            if self._discarding:
                self._discarding = False
            else:
                line = b"".join(self._parts)
                self._parts, self._length = [], 0
                self._on_line(line)
            at = newline + 1

    def finish(self) -> None:
        """End of input: a last line without its newline still counts."""
        if self._parts and not self._discarding:
            line = b"".join(self._parts)
            self._parts, self._length = [], 0
            self._on_line(line)


class LineWriter:
    """stdout for both the SDK and the gate: every write is one whole line, written at once to the descriptor."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def write_line(self, line: str) -> None:
        data = line.encode("utf-8", "surrogatepass")
        while data:
            written = os.write(self._fd, data)
            data = data[written:]

    async def write(self, text: str) -> None:  # the SDK writes `json + "\n"` in one call
        self.write_line(text)

    async def flush(self) -> None:
        pass


class GatedInput:
    """The async line source handed to the SDK's stdio_server as its stdin: only the lines the gate lets through."""

    def __init__(self, fd: int, out: LineWriter, on_refused: Optional[Callable[[Optional[str]], None]] = None,
                 limit: int = MAX_LINE_BYTES) -> None:
        self._fd = fd
        self._out = out
        self._on_refused = on_refused or (lambda reply: None)
        self._ready: List[str] = []
        self._splitter = LineSplitter(limit, self._line, self._too_long)

    def _line(self, line: bytes) -> None:
        if line == b"" or line == b"\r":
            return  # an empty line carries nothing
        verdict = judge_frame(line)
        if isinstance(verdict, Forward):
            self._ready.append(verdict.line.decode("utf-8", "surrogatepass") + "\n")
        elif isinstance(verdict, Reply):
            self._on_refused(verdict.line)
            self._out.write_line(verdict.line + "\n")
        else:
            self._on_refused(None)

    def _too_long(self) -> None:
        self._on_refused(TOO_LARGE)
        self._out.write_line(TOO_LARGE + "\n")

    def __bool__(self) -> bool:
        return True

    async def __aiter__(self) -> AsyncIterator[str]:
        while True:
            while self._ready:
                yield self._ready.pop(0)
            chunk = await anyio.to_thread.run_sync(os.read, self._fd, 1 << 16)
            if not chunk:
                self._splitter.finish()
                while self._ready:
                    yield self._ready.pop(0)
                return
            self._splitter.push(chunk)


@dataclass(frozen=True)
class PassBody:
    """A body that may reach the SDK, as the bytes that were checked."""

    body: bytes


@dataclass(frozen=True)
class RefuseBody:
    """A body refused before the SDK: answered with HTTP 400 and this line."""

    line: str


def judge_http_body(body: bytes) -> "PassBody | RefuseBody":
    """The HTTP mode's gate for one request body: the rules of the Java server's HTTP gate (GateServlet), answered with
    this gate's lines, as ts-fixture's judgeHttpBody. Strict UTF-8 and exactly one JSON value, else -32700; an object,
    else -32600 without id; "jsonrpc" exactly "2.0" (the last such member, as json.loads keeps it), else -32600 with
    the id when it is a valid one. The rest of judge_frame stays with stdio: over HTTP the SDK answers what it cannot
    take (400) instead of leaving it unanswered as its stdio transport does.

    The SDK parses the passed bytes again with json.loads; for a body that passed here that reads the same value
    (strict UTF-8 without a BOM is what json.loads detects as UTF-8, and both keep the last of repeated members)."""
    try:
        text = body.decode("utf-8")
        message = _parse(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return RefuseBody(PARSE_ERROR)
    if not isinstance(message, dict):
        return RefuseBody(INVALID_REQUEST)
    if message.get("jsonrpc") != "2.0":
        return RefuseBody(error_line(_object_id_text(text), -32600, "Invalid Request"))
    return PassBody(body)


def _object_id_text(text: str) -> Optional[str]:
    """The JSON text of a parsed object's id when it is a valid one, else None."""
    id_member = _last_member(top_level_members(text), "id")
    return None if id_member is None else valid_id(id_member.value)


def body_id_text(body: bytes) -> Optional[str]:
    """The JSON text of a body's id when it is a valid one (for an error the SDK never sees), else None. Only for a
    body judge_http_body passed (strict UTF-8, one JSON object), or an empty one."""
    return _object_id_text(body.decode("utf-8")) if body else None
