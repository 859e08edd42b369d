"""The smallest reproductions of docs/findings/python-sdk-2.3.0-http.md, against the SDK and uvicorn alone (no code of
the fixture): each test states what mcp 2.3.0 / uvicorn 0.55.0 do today; a test that starts failing means the
finding has changed and the page must be updated."""

import json
import signal
import subprocess
import sys
import time

import anyio
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, ListToolsResult, TextContent, Tool

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def bare_server(listed: "list[int]") -> Server:
    async def on_list_tools(ctx, params):
        listed.append(1)
        return ListToolsResult(tools=[Tool(name="echo", input_schema={"type": "object"})])

    async def on_call_tool(ctx, params):
        return {"content": [], "isError": False}

    return Server("bare", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def exchange(manager: StreamableHTTPSessionManager, body: dict, headers: "dict[str, str]") -> "tuple[int, bytes]":
    """One request through the manager's ASGI entry, in process."""
    answer: dict = {"status": None, "body": b""}

    async def run() -> None:
        sent = False

        async def receive() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}
            await anyio.sleep_forever()

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            else:
                answer["body"] += message.get("body", b"")

        scope = {"type": "http", "method": "POST", "path": "/mcp", "headers":
                 [(k.lower().encode(), v.encode()) for k, v in headers.items()], "query_string": b"",
                 "client": ("127.0.0.1", 5), "server": ("127.0.0.1", 80), "scheme": "http", "root_path": ""}
        async with manager.run():
            await manager.handle_request(scope, receive, send)

    anyio.run(run)
    return answer["status"], answer["body"]


HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}}


def test_1_without_security_settings_a_foreign_host_and_origin_are_served():
    manager = StreamableHTTPSessionManager(bare_server([]), json_response=True, stateless=True)
    status, body = exchange(manager, LIST, {**HEADERS, "Host": "evil.example", "Origin": "http://evil.example"})
    assert status == 200 and b'"echo"' in body


def test_1_with_security_settings_a_foreign_host_is_421_and_the_port_wildcard_is_a_prefix():
    settings = TransportSecuritySettings(allowed_hosts=["127.0.0.1:*"], allowed_origins=["http://127.0.0.1:*"])
    manager = StreamableHTTPSessionManager(bare_server([]), json_response=True, stateless=True, security_settings=settings)
    assert exchange(manager, LIST, {**HEADERS, "Host": "evil.example"}) == (421, b"Invalid Host header")
    manager = StreamableHTTPSessionManager(bare_server([]), json_response=True, stateless=True, security_settings=settings)
    assert exchange(manager, LIST, {**HEADERS, "Host": "127.0.0.1:not-a-port"})[0] == 200
    manager = StreamableHTTPSessionManager(bare_server([]), json_response=True, stateless=True, security_settings=settings)
    assert exchange(manager, LIST, {**HEADERS, "Host": "127.0.0.1"}) == (421, b"Invalid Host header")


def test_2_every_tools_call_with_arguments_runs_the_tools_list_handler_first():
    listed: "list[int]" = []
    manager = StreamableHTTPSessionManager(bare_server(listed), json_response=True, stateless=True)
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"a": 1}, "_meta": META}}
    status, _ = exchange(manager, call, {**HEADERS, "Mcp-Method": "tools/call", "Mcp-Name": "echo"})
    assert status == 200 and listed == [1]


def test_3_a_refused_request_state_is_http_400():
    from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS
    assert ERROR_CODE_HTTP_STATUS[-32602] == 400


UVICORN_ON_SIGTERM = """
import asyncio, sys, uvicorn
async def app(scope, receive, send):
    return
async def main():
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="off", log_config=None))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    print("started", flush=True)
    await task
    print("serve returned", flush=True)
asyncio.run(main())
print("after asyncio.run", flush=True)
"""


def test_4_uvicorn_raises_sigterm_again_inside_serve_so_nothing_after_it_runs():
    process = subprocess.Popen([sys.executable, "-c", UVICORN_ON_SIGTERM], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline() == "started\n"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == -signal.SIGTERM
        # the re-raised signal ends the process inside serve(): no code after it runs (no cleanup of children)
        assert process.stdout.read() == ""
    finally:
        process.kill()
        process.wait()


def test_7_the_sdk_serves_any_content_type_that_starts_with_application_json():
    for content_type in ("application/jsonx", "application/json-seq", "application/json; charset=utf-8"):
        manager = StreamableHTTPSessionManager(bare_server([]), json_response=True, stateless=True)
        status, body = exchange(manager, LIST, {**HEADERS, "Content-Type": content_type})
        assert status == 200 and b'"echo"' in body, content_type
    manager = StreamableHTTPSessionManager(bare_server([]), json_response=True, stateless=True)
    assert exchange(manager, LIST, {**HEADERS, "Content-Type": "text/plain"}) == (400, b"Invalid Content-Type header")


def test_8_h11_limits_only_an_incomplete_head_and_never_counts_headers():
    import h11
    from uvicorn.protocols.http.h11_impl import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE

    assert DEFAULT_MAX_INCOMPLETE_EVENT_SIZE == 16 * 1024  # uvicorn's default, h11's own
    start = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
    # a complete 64 KiB head in one read is a request
    server = h11.Connection(h11.SERVER)
    server.receive_data(start + b"X-Padding: " + b"p" * (64 * 1024) + b"\r\n\r\n")
    assert isinstance(server.next_event(), h11.Request)
    # so are 2,000 headers
    server = h11.Connection(h11.SERVER)
    server.receive_data(start + b"".join(b"X-Many-%d: v\r\n" % i for i in range(2000)) + b"\r\n")
    request = server.next_event()
    assert isinstance(request, h11.Request) and len(request.headers) == 2002
    # only a head still incomplete past the limit is refused (uvicorn turns this into its 400)
    server = h11.Connection(h11.SERVER)
    server.receive_data(start + b"X-Padding: " + b"p" * (17 * 1024))
    try:
        server.next_event()
        raise AssertionError("an incomplete 17 KiB head was not refused")
    except h11.RemoteProtocolError as refused:
        assert refused.error_status_hint == 431


def progress_server() -> Server:
    async def on_list_tools(ctx, params):
        return ListToolsResult(tools=[Tool(name="slow", input_schema={"type": "object"})])

    async def on_call_tool(ctx, params):
        for value in (0, 50, 100):
            await ctx.session.report_progress(value, 100)
        return CallToolResult(content=[TextContent(type="text", text="done")])

    return Server("bare", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def test_9_in_json_mode_a_handlers_progress_is_dropped_without_a_word():
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "slow", "arguments": {}, "_meta": {**META, "progressToken": "p"}}}
    headers = {**HEADERS, "Mcp-Method": "tools/call", "Mcp-Name": "slow"}
    status, body = exchange(StreamableHTTPSessionManager(progress_server(), json_response=True, stateless=True), call, headers)
    assert status == 200 and json.loads(body)["result"]["content"][0]["text"] == "done"
    assert b"notifications/progress" not in body
    # the same handler in the manager's event-stream mode: the three notifications, then the result
    status, body = exchange(StreamableHTTPSessionManager(progress_server(), json_response=False, stateless=True), call, headers)
    frames = [json.loads(line[5:]) for line in body.decode().splitlines() if line.startswith("data:")]
    assert status == 200 and [f["params"]["progress"] for f in frames[:-1]] == [0, 50, 100]
    assert frames[-1]["result"]["content"][0]["text"] == "done"
