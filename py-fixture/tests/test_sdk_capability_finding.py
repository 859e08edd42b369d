"""The smallest reproduction of docs/findings/python-sdk-2.3.0.md, section 5, against the SDK alone (no code of the
fixture): the low-level Server hands a handler's input requests to a client whose request declared no elicitation
capability. A test that starts failing means the SDK now checks, and the page must be updated."""

import json

from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

from test_sdk_http_findings import HEADERS, exchange


def asking_server() -> Server:
    async def on_call_tool(ctx, params):
        return InputRequiredResult(
            input_requests={"body": ElicitRequest(params=ElicitRequestFormParams(
                message="Body?", requested_schema={"type": "object", "properties": {"body": {"type": "string"}}}))},
            request_state="s",
        )

    return Server("bare", on_call_tool=on_call_tool)


def test_5_an_elicitation_goes_to_a_client_that_declared_no_elicitation():
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask", "arguments": {}, "_meta": meta}}
    manager = StreamableHTTPSessionManager(asking_server(), json_response=True, stateless=True)
    status, body = exchange(manager, call, {**HEADERS, "Mcp-Method": "tools/call", "Mcp-Name": "ask"})
    result = json.loads(body)["result"]
    assert status == 200
    assert result["resultType"] == "input_required"
    assert result["inputRequests"]["body"]["method"] == "elicitation/create"
