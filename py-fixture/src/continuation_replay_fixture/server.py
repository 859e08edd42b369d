"""The guarded Python fixture: an MCP server on the official Python SDK (`mcp`, low-level Server) speaking protocol
2026-07-28 on stdio, whose effects go through one long-lived Java bridge child to the shared SQLite ledger.
stdout is the wire; every log line goes to stderr. Exit 2 for a bad configuration, 70 for drop-after-commit.

With `--http PORT` it serves Streamable HTTP on 127.0.0.1 instead (http_server.py) and leaves stdout unused;
`--http PORT --conformance` adds the official conformance suite's fixtures (conformance_fixtures.py).
`--unguarded` (stdio or HTTP) serves the unguarded control instead of the guarded tools (unguarded_tools.py).
"""

import logging
import os
import sys
from typing import Any, NoReturn

import anyio
import mcp.server.request_state as request_state_module
from mcp.server.lowlevel.server import Server

from .bridge_client import BridgeClient
from .bridge_command import REPO_ROOT, BridgeCommandError, bridge_command, bridge_environment
from .guarded_tools import GuardedToolsContext, guarded_server, shipped_tool_table
from .injected_clock import pin_request_state_clock
from .strict_frames import GatedInput, LineWriter
from .tool_table import ToolTableError
from .unguarded_tools import unguarded_server
from .trusted_environment import ConfigurationError, FixtureConfig, read_config

SERVER_NAME = "continuation-replay-py-fixture"
SERVER_VERSION = "0.1.0"
BAD_CONFIGURATION = 2


def log(message: str) -> None:
    sys.stderr.write(f"{SERVER_NAME}: {message}\n")
    sys.stderr.flush()


def refuse(message: str) -> NoReturn:
    """A bad configuration or command line: the message alone on stderr, exit 2 before anything starts."""
    sys.stderr.write(f"{message}\n")
    sys.stderr.flush()
    os._exit(BAD_CONFIGURATION)


def prepare_process(clock_epoch: int) -> None:
    """What both modes do once configured: the SDK's requestState clock pinned, its log lines to stderr."""
    pin_request_state_clock(request_state_module, clock_epoch)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{SERVER_NAME}: %(name)s: %(message)s")


def build_server(config: FixtureConfig, bridge: Any, exit_process=os._exit, unguarded: bool = False) -> Server:
    """The guarded tools (or the unguarded control) for the one principal of WIRE_PRINCIPAL, one context for every
    call."""
    context = GuardedToolsContext(config=config, bridge=bridge, exit=exit_process, log=log)
    build = unguarded_server if unguarded else guarded_server
    return build(SERVER_NAME, SERVER_VERSION, config, lambda ctx: context, lambda ctx: config.principal)


def configure() -> "tuple[FixtureConfig, list[str]]":
    try:
        shipped_tool_table()
        return read_config(os.environ), bridge_command(REPO_ROOT, os.environ)
    except (ConfigurationError, BridgeCommandError, ToolTableError) as error:
        refuse(str(error))


async def serve(config: FixtureConfig, argv: "list[str]", unguarded: bool = False) -> None:
    from mcp.server.stdio import stdio_server

    bridge = BridgeClient(argv, bridge_environment(os.environ))
    await bridge.start()
    server = build_server(config, bridge, unguarded=unguarded)
    # The strict frame gate reads stdin; the SDK reads only the lines it lets through, and both write whole lines to
    # the same stdout (strict_frames.py, docs/python-fixture.md).
    out = LineWriter(sys.stdout.fileno())
    stdin = GatedInput(sys.stdin.fileno(), out)
    try:
        async with stdio_server(stdin=stdin, stdout=out) as (read_stream, write_stream):  # type: ignore[arg-type]
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        await bridge.close()


def http_port(text: "str | None") -> int:
    """`--http PORT`: a decimal port, 0 for a free one."""
    if text is None or not (1 <= len(text) <= 5 and text.isascii() and text.isdigit()) or int(text) > 65535:
        refuse("--http needs a port from 0 to 65535")
    return int(text)


def main_http(port_text: "str | None", conformance: bool = False, unguarded: bool = False) -> None:
    port = http_port(port_text)
    # Imported for HTTP only: a stdio fixture, which the matrix starts many times a run, skips uvicorn and starlette.
    from .bearer_tokens import read_bearer_tokens
    from .conformance_state import CONFORMANCE_PRINCIPAL
    from .http_server import conformance_profile, listening_socket, serve_http
    from .trusted_environment import BEARER_TOKENS_FILE, conformance_state_ttl, read_http_config

    try:
        shipped_tool_table()
        config = read_http_config(os.environ, conformance=conformance)
        state_ttl = conformance_state_ttl(os.environ) if conformance else None
        tokens = None if config.bearer_tokens_file is None else read_bearer_tokens(config.bearer_tokens_file)
        argv = bridge_command(REPO_ROOT, os.environ)
    except (ConfigurationError, BridgeCommandError, ToolTableError) as error:
        refuse(str(error))
    prepare_process(config.clock_epoch)
    profile = None
    if conformance:
        assert state_ttl is not None
        profile = conformance_profile(config, state_ttl, log)
        if tokens is None:
            log(
                f"conformance profile without {BEARER_TOKENS_FILE}: no bearer token is asked for; every request is "
                f'principal "{CONFORMANCE_PRINCIPAL}" (loopback only)'
            )
    try:
        sock = listening_socket(port)
    except OSError as error:
        log(f"cannot listen on 127.0.0.1:{port}: {error.strerror}")
        os._exit(1)
    anyio.run(
        serve_http,
        config,
        tokens,
        argv,
        bridge_environment(os.environ),
        sock,
        SERVER_NAME,
        SERVER_VERSION,
        log,
        profile,
        unguarded,
    )


def main(args: "list[str] | None" = None) -> None:
    args = sys.argv[1:] if args is None else args
    # `--conformance` and `--unguarded` may stand anywhere after the mode; the first only ever adds to HTTP mode, and
    # the control serves no conformance fixtures (the suite scores the guarded server).
    conformance = "--conformance" in args
    unguarded = "--unguarded" in args
    mode = [arg for arg in args if arg not in ("--conformance", "--unguarded")]
    if conformance and (args.count("--conformance") > 1 or mode[:1] != ["--http"]):
        refuse("--conformance needs --http PORT (and is given once)")
    if unguarded and (args.count("--unguarded") > 1 or conformance):
        refuse("--unguarded serves the control, which has no conformance fixtures (and is given once)")
    if mode[:1] == ["--http"] and len(mode) <= 2:
        main_http(mode[1] if len(mode) == 2 else None, conformance, unguarded)
        return
    if mode:
        refuse(f"unknown arguments {' '.join(args)} (none for stdio, or --http PORT [--conformance], or --unguarded)")
    config, argv = configure()
    prepare_process(config.clock_epoch)
    anyio.run(serve, config, argv, unguarded)
