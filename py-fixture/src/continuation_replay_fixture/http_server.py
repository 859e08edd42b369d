"""HTTP mode of the guarded fixture (`--http PORT`): the same tools over Streamable HTTP at http://127.0.0.1:PORT/mcp.

The SDK's own pieces serve the protocol: `StreamableHTTPSessionManager` (stateless, JSON replies), whose entry for a
2026-07-28 request is the SDK's single-exchange handler, run by uvicorn (both already in the lock as dependencies of
`mcp`). Everything the SDK leaves to the embedding happens in `HttpGate`, before the SDK sees a request: loopback
Host/Origin, the size of a request's head, the path, the in-flight limit, the bearer principal, the media type, the
body limit, the read timeout and the strict body rules of the Java server's gate. A refused request never reaches a handler, so it has no effect.
"""

import asyncio
import contextlib
import os
import signal
import socket
import sys
from enum import Enum
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, Optional, Tuple
from urllib.parse import urlsplit

import anyio
import uvicorn
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from uvicorn.protocols.http.h11_impl import H11Protocol

from .bearer_tokens import BearerTokens
from .bridge_client import BridgeClient
from .conformance_state import CONFORMANCE_PRINCIPAL
from .guarded_tools import GuardedToolsContext, guarded_server
from .unguarded_tools import unguarded_server
from .strict_frames import PROTOCOL_VERSION, PassBody, body_id_text, error_line, judge_http_body
from .trusted_environment import FAULT, PRINCIPAL, HttpFixtureConfig

if TYPE_CHECKING:
    from .conformance_fixtures import ConformanceProfile

ENDPOINT = "/mcp"
MAX_BODY_BYTES = 4 * 1024 * 1024
MAX_IN_FLIGHT = 64
# A request's head: Node's default header size (16 KiB, the TypeScript fixture's) and Tomcat's default header count
# (100, the Java server's). uvicorn/h11 cap only a head still incomplete after a read (at 16 KiB) and never count
# headers, so a larger head that arrives in one read, or 2,000 small headers, would otherwise reach the SDK.
MAX_HEAD_BYTES = 16 * 1024
MAX_HEADER_COUNT = 100
LOOPBACK = "127.0.0.1"
SHUTDOWN_GRACE_S = 5
# What the gate hands the SDK along with a request, in the ASGI scope (the SDK passes the scope on as ctx.request).
PRINCIPAL_KEY = "continuation_replay.principal"
CLOSE_CONNECTION_KEY = "continuation_replay.close_connection"

_LOOPBACK_HOSTS = frozenset(("localhost", "127.0.0.1", "[::1]"))
_LOOPBACK_ORIGIN_HOSTS = frozenset(("localhost", "127.0.0.1", "::1"))
_TIMED_OUT = "request not received within the read timeout\n"

Send = Callable[[dict], Awaitable[None]]
Receive = Callable[[], Awaitable[dict]]
Asgi = Callable[[dict, Receive, Send], Awaitable[None]]


def loopback_host(values: "list[str]") -> bool:
    """Exactly one Host header naming a loopback name, with or without a port (DNS rebinding)."""
    if len(values) != 1:
        return False
    host = values[0].strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return False
        name, rest = host[: end + 1], host[end + 1 :]
    else:
        name, _, port = host.partition(":")
        rest = "" if port == "" and not host.endswith(":") else ":" + port
    if rest != "" and not (rest.startswith(":") and rest[1:].isascii() and rest[1:].isdigit()):
        return False
    return name in _LOOPBACK_HOSTS


def loopback_origin(values: "list[str]") -> bool:
    """No Origin (not a browser), or exactly one whose host is a loopback name."""
    if not values:
        return True
    if len(values) != 1:
        return False
    try:
        parts = urlsplit(values[0].strip())
        host = parts.hostname
        parts.port  # raises on a port that is not a number
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and host in _LOOPBACK_ORIGIN_HOSTS


def json_content_type(values: "list[str]") -> bool:
    """Exactly one Content-Type whose media type is application/json; parameters (a charset) are allowed. The SDK
    checks only that the value starts with `application/json`, so `application/jsonx` would pass it."""
    if len(values) != 1:
        return False
    return values[0].split(";", 1)[0].strip().lower() == "application/json"


def head_too_large(scope: dict) -> bool:
    """More than MAX_HEADER_COUNT headers, or a head (request target and header lines) over MAX_HEAD_BYTES."""
    headers = scope["headers"]
    if len(headers) > MAX_HEADER_COUNT:
        return True
    size = len(scope["method"]) + len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 12
    size += sum(len(name) + len(value) + 4 for name, value in headers)
    return size > MAX_HEAD_BYTES


def _header_values(scope: dict, name: bytes) -> "list[str]":
    return [value.decode("latin-1") for key, value in scope["headers"] if key.lower() == name]


async def _answer(send: Send, status: int, body: bytes, content_type: str, headers: "list[Tuple[bytes, bytes]]" = ()) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type.encode("ascii")),
                (b"content-length", str(len(body)).encode("ascii")),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _plain(send: Send, status: int, message: str, headers: "list[Tuple[bytes, bytes]]" = ()) -> None:
    await _answer(send, status, f"{message}\n".encode("utf-8"), "text/plain; charset=utf-8", headers)


class Unread(Enum):
    """Why read_body has no body to give."""

    TOO_LARGE = "too large"
    TIMED_OUT = "timed out"
    ABORTED = "aborted"


async def read_body(scope: dict, receive: Receive, deadline: float) -> "bytes | Unread":
    """The whole body, or why not. A declared length over the limit is refused from the headers; a longer chunked body
    is read and dropped past the limit rather than cut off, so a client still sending it gets to read the 413 (closing
    on unread data resets the connection before the answer is read); the read timeout bounds how long that takes."""
    declared = _header_values(scope, b"content-length")
    if len(declared) == 1 and declared[0].strip().isdigit() and int(declared[0]) > MAX_BODY_BYTES:
        return Unread.TOO_LARGE  # refused from the headers, nothing read
    chunks: "list[bytes]" = []
    size = 0
    try:
        with anyio.fail_after(max(0.0, deadline - anyio.current_time())):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return Unread.ABORTED
                chunk = message.get("body", b"")
                size += len(chunk)
                if size <= MAX_BODY_BYTES:
                    chunks.append(chunk)
                else:
                    chunks.clear()  # past the limit for good: nothing more is kept
                if not message.get("more_body", False):
                    break
    except TimeoutError:
        return Unread.TIMED_OUT
    return Unread.TOO_LARGE if size > MAX_BODY_BYTES else b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that yields the checked body once, then waits on the connection (for its disconnect)."""
    sent = False

    async def replay() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class Connections:
    """uvicorn's protocol object of each open connection, by the client's address (the scope's `client`): how the gate
    reaches the socket of a request, to stop its header timer or close it (close-after-commit)."""

    def __init__(self) -> None:
        self.by_client: "Dict[Tuple[str, int], Any]" = {}

    def of(self, scope: dict) -> Optional[Any]:
        client = scope.get("client")
        return None if client is None else self.by_client.get((client[0], client[1]))


def protocol_class(connections: Connections, read_timeout_s: float) -> type:
    """uvicorn's h11 protocol with a read timeout for a request's head: uvicorn has none (only an idle keep-alive
    timeout), so a client sending headers slowly would hold a connection forever."""

    class FixtureH11Protocol(H11Protocol):
        _head_timer: "Optional[asyncio.TimerHandle]" = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if self.client is not None:
                connections.by_client[self.client] = self
            self._arm()

        def connection_lost(self, exc: Optional[Exception]) -> None:
            self.head_received()
            if self.client is not None and connections.by_client.get(self.client) is self:
                del connections.by_client[self.client]
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on a kept connection gets the same limit for its head

        def head_received(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def close_now(self) -> None:
            self.transport.abort()

        def _arm(self) -> None:
            self.head_received()
            self._head_timer = asyncio.get_running_loop().call_later(read_timeout_s, self._head_timed_out)

        def _head_timed_out(self) -> None:
            self._head_timer = None
            if self.transport.is_closing():
                return
            body = _TIMED_OUT.encode("ascii")
            # The head never completed, so h11 has nothing to answer; these bytes and the close end the connection.
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                + f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode("ascii")
                + body
            )
            self.transport.close()

    return FixtureH11Protocol


class HttpGate:
    """The ASGI application uvicorn runs: every check the SDK leaves to the embedding, then the SDK's handler.

    `tokens` is None only under the conformance profile without a tokens file: then no token is asked for and every
    request is principal CONFORMANCE_PRINCIPAL (the server listens on loopback only, as always)."""

    def __init__(
        self,
        mcp: Asgi,
        tokens: Optional[BearerTokens],
        read_timeout_s: float,
        connections: Connections,
        log: Callable[[str], None],
    ) -> None:
        self._mcp = mcp
        self._tokens = tokens
        self._read_timeout_s = read_timeout_s
        self._connections = connections
        self._log = log
        self.in_flight = 0

    async def __call__(self, scope: dict, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        started = anyio.current_time()
        connection = self._connections.of(scope)
        if connection is not None:
            connection.head_received()
        if head_too_large(scope):
            return await _plain(send, 431, "request header fields too large")
        # DNS rebinding first: a page on a foreign origin must learn nothing, not even whether a token is valid.
        if not loopback_host(_header_values(scope, b"host")) or not loopback_origin(_header_values(scope, b"origin")):
            return await _plain(send, 403, "forbidden: Host and Origin must be this loopback server")
        if scope["path"] != ENDPOINT:
            return await _plain(send, 404, "not found")
        if self.in_flight >= MAX_IN_FLIGHT:
            return await _plain(send, 503, "too many requests in flight", [(b"retry-after", b"1")])
        authorization = _header_values(scope, b"authorization")
        if self._tokens is None:
            principal: Optional[str] = CONFORMANCE_PRINCIPAL  # the conformance profile without a tokens file
        else:
            principal = self._tokens.principal_for(authorization[0]) if len(authorization) == 1 else None
        if principal is None:
            challenge = b"Bearer" if not authorization else b'Bearer error="invalid_token"'
            return await _plain(send, 401, "unauthorized", [(b"www-authenticate", challenge)])
        self.in_flight += 1
        try:
            body = b""
            if scope["method"] == "POST":
                if not json_content_type(_header_values(scope, b"content-type")):
                    return await _plain(send, 415, "unsupported media type: Content-Type must be application/json")
                read = await read_body(scope, receive, started + self._read_timeout_s)
                if read is Unread.ABORTED:
                    return
                if read is Unread.TIMED_OUT:
                    return await _plain(send, 408, _TIMED_OUT.strip(), [(b"connection", b"close")])
                if read is Unread.TOO_LARGE:
                    return await _plain(send, 413, "request body over 4 MiB")
                # The Java server's rules, not a lenient decode. What is refused here never reaches the SDK.
                verdict = judge_http_body(read)
                if not isinstance(verdict, PassBody):
                    return await _answer(send, 400, verdict.line.encode("utf-8"), "application/json")
                body = verdict.body
                receive = _replaying(body, receive)
            refusal = _legacy_refusal(scope, body)
            if refusal is not None:
                return await _answer(send, 400, refusal.encode("utf-8"), "application/json")
            close = connection.close_now if connection is not None else _cannot_close
            # The token stays here: the SDK's handlers see only the principal it authenticated.
            await self._mcp({**scope, PRINCIPAL_KEY: principal, CLOSE_CONNECTION_KEY: close}, receive, send)
        finally:
            self.in_flight -= 1


def _legacy_refusal(scope: dict, body: bytes) -> Optional[str]:
    """The answer to a request of the handshake era, or None. The SDK's manager sends a request without
    `MCP-Protocol-Version`, or with a handshake-era version, to its legacy transport (an initialize handshake, a GET
    that opens an event stream and holds it), and has no option to refuse that era (the TypeScript fixture's
    `legacy: 'reject'`); this fixture serves 2026-07-28 only, so such a request is refused here with the SDK's own
    -32022 error and never reaches the legacy transport."""
    versions = _header_values(scope, b"mcp-protocol-version")
    legacy = [v for v in versions if v in HANDSHAKE_PROTOCOL_VERSIONS]
    if versions and not legacy:
        return None
    requested = legacy[0] if legacy else ""
    data = {"supported": [PROTOCOL_VERSION], "requested": requested}
    return error_line(body_id_text(body), -32022, "Unsupported protocol version", data)


def _cannot_close() -> None:
    raise RuntimeError("this request's connection is not known")


def principal_of(ctx: ServerRequestContext) -> str:
    """The principal the gate authenticated for this request. Every request reaching the SDK passed the gate, so a
    missing one is a bug: refuse (the SDK's boundary turns a raise into its frozen refusal) rather than bind ''."""
    request = ctx.request
    principal = None if request is None else request.scope.get(PRINCIPAL_KEY)
    if not isinstance(principal, str):
        raise RuntimeError("no principal on this request")
    return principal


class PrincipalBridges:
    """The bridge takes its principal from its own environment (the bridge protocol has no principal field, on
    purpose), so each principal gets its own bridge child, started on that principal's first call."""

    def __init__(self, argv: "list[str]", env: "dict[str, str]") -> None:
        self._argv = argv
        self._env = dict(env)
        # close-after-commit is the fixture's own fault; the bridge knows only the stdio ones.
        if self._env.get(FAULT) == "close-after-commit":
            del self._env[FAULT]
        self._bridges: "Dict[str, BridgeClient]" = {}

    def for_principal(self, principal: str) -> BridgeClient:
        bridge = self._bridges.get(principal)
        if bridge is None:
            bridge = BridgeClient(self._argv, {**self._env, PRINCIPAL: principal})
            self._bridges[principal] = bridge
        return bridge

    async def close(self) -> None:
        for bridge in self._bridges.values():
            await bridge.close()


def build_http_server(
    config: HttpFixtureConfig,
    bridges: PrincipalBridges,
    name: str,
    version: str,
    log: Callable[[str], None],
    exit_process: Callable[[int], None] = os._exit,
    unguarded: bool = False,
) -> Server:
    """The guarded tools (or the unguarded control), each call run as the principal the gate authenticated, which the
    requestState boundary binds too."""

    def context_of(ctx: ServerRequestContext) -> GuardedToolsContext:
        principal = principal_of(ctx)
        return GuardedToolsContext(
            config=config.for_principal(principal),
            bridge=bridges.for_principal(principal),
            exit=exit_process,
            log=log,
            close_connection=ctx.request.scope[CLOSE_CONNECTION_KEY],
        )

    build = unguarded_server if unguarded else guarded_server
    return build(name, version, config, context_of, principal_of)


def conformance_profile(config: HttpFixtureConfig, state_ttl: int, log: Callable[[str], None]) -> "ConformanceProfile":
    """The suite's fixtures (`--conformance`), imported only when the profile is on."""
    from .conformance_fixtures import ConformanceProfile
    from .conformance_state import FixtureStates

    return ConformanceProfile(FixtureStates(state_ttl), principal_of, log)


class _FixtureUvicorn(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self):  # type: ignore[override]
        # The fixture handles SIGTERM/SIGINT itself (serve_http): uvicorn's own handler raises the signal again once
        # it has shut down, so the process would end by the signal (status 143) instead of exit 0 with its bridges
        # ended.
        yield


def listening_socket(port: int) -> socket.socket:
    """The loopback listening socket uvicorn is handed. Its protocol is named (IPPROTO_TCP, not 0): asyncio turns
    Nagle's algorithm off (TCP_NODELAY) only on accepted sockets whose proto is IPPROTO_TCP, and with Nagle on, a
    reply written as head then body waited for the client's delayed ACK, about 40 ms on every request after the first
    on a kept connection (found by lab bench, guard overhead over HTTP)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((LOOPBACK, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


async def serve_http(
    config: HttpFixtureConfig,
    tokens: Optional[BearerTokens],
    bridge_argv: "list[str]",
    bridge_env: "dict[str, str]",
    sock: socket.socket,
    name: str,
    version: str,
    log: Callable[[str], None],
    profile: "Optional[ConformanceProfile]" = None,
    unguarded: bool = False,
) -> None:
    """Serves until SIGTERM or SIGINT; then stops listening, lets requests in progress finish (up to 5 s), ends every
    bridge child and returns. With `profile` (the conformance profile) its fixtures are served beside the guarded
    tools."""
    bridges = PrincipalBridges(bridge_argv, bridge_env)
    server = build_http_server(config, bridges, name, version, log, unguarded=unguarded)
    if profile is not None:
        profile.install(server)
    # Stateless and JSON: a 2026-07-28 request is a self-contained exchange, and the guarded tools emit nothing before
    # their result, so each reply is one JSON body. The conformance profile needs the SDK's event-stream mode instead:
    # in JSON mode the SDK drops every notification a handler sends (progress, log entries, the listen stream's
    # frames: its single-exchange context has no sink), and subscriptions/listen is always a stream. In that mode a
    # reply whose handler sends nothing is still one JSON body; only one that notifies becomes an event stream.
    manager = StreamableHTTPSessionManager(
        server, json_response=profile is None, stateless=True, max_request_body_size=MAX_BODY_BYTES
    )
    connections = Connections()
    read_timeout_s = config.read_timeout_ms / 1000
    gate = HttpGate(manager.handle_request, tokens, read_timeout_s, connections, log)
    uv = _FixtureUvicorn(
        uvicorn.Config(
            gate,
            lifespan="off",
            log_config=None,
            access_log=False,
            http=protocol_class(connections, read_timeout_s),
            server_header=False,
            date_header=False,
            # A head still incomplete past this many bytes is refused by h11 (uvicorn answers 400 and closes); a
            # complete one is measured by the gate (431).
            h11_max_incomplete_event_size=MAX_HEAD_BYTES,
            timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
        )
    )
    loop = asyncio.get_running_loop()

    def stop() -> None:
        uv.should_exit = True
        if profile is not None:
            profile.close()  # open listen streams end with their final result rather than wait out the grace

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop)
    host, port = sock.getsockname()[:2]

    async def announce() -> None:
        while not uv.started:
            if uv.should_exit:
                return
            await asyncio.sleep(0.01)
        sys.stderr.write(f"serving http://{host}:{port}{ENDPOINT}\n")
        sys.stderr.flush()

    try:
        async with manager.run():
            announcer = asyncio.create_task(announce())
            await uv.serve(sockets=[sock])
            announcer.cancel()
    finally:
        await bridges.close()
