"""The conformance profile (`--http PORT --conformance`) as a real process on real sockets, with raw HTTP/1.1 bytes:
off by default; without a tokens file every request is principal `conformance` (said in one stderr line); with one,
tokens are required; fixture states sealed by the SDK's boundary under the state key and bound to principal, fixture,
arguments and a real-clock expiry; forged, re-spelt, foreign (a guarded tool's, another fixture's, another
principal's), expired and absent states refused with the frozen -32602; the one stateless fixture; progress over an
event stream; -32021 for an undeclared capability; a listen stream that gets the trigger and ends with its result when
the server stops (exit 0); `--conformance` without `--http` and a bad lifetime are exit 2."""

import json
import signal
import socket
import subprocess
import sys
import time

import pytest

from test_fixture_process import INVALID_STATE, META, SERVER
from test_http_process import ALICE, BOB, HttpFixture, reply

REQUEST_STATE = "test_input_required_result_request_state"
TAMPERED_STATE = "test_input_required_result_tampered_state"
ELICITATION = "test_input_required_result_elicitation"
CONFIRM = {"confirm": {"action": "accept", "content": {"ok": True}}}
PROFILE_LINE = ('continuation-replay-py-fixture: conformance profile without WIRE_BEARER_TOKENS_FILE: no bearer token is '
                'asked for; every request is principal "conformance" (loopback only)\n')
STATE_TTL = 4


@pytest.fixture(scope="module")
def open_profile(tmp_path_factory):
    """The profile as the suite meets it: no tokens file."""
    started = HttpFixture(tmp_path_factory.mktemp("open"), args=("--http", "0", "--conformance"), tokens_file=False)
    yield started
    assert started.stop() == 0


@pytest.fixture(scope="module")
def profile(tmp_path_factory):
    """The profile as the strict checks meet it: two principals' tokens and a short fixture-state lifetime."""
    started = HttpFixture(tmp_path_factory.mktemp("tokens"), args=("--conformance", "--http", "0"),
                          WIRE_CONFORMANCE_STATE_TTL=str(STATE_TTL))
    yield started
    assert started.stop() == 0


def rpc(server, method: str, params: dict, token="ALICE", name=None, extra=None):
    server.next_id += 1
    body = json.dumps({"jsonrpc": "2.0", "id": server.next_id, "method": method, "params": params}).encode()
    return server.post(body, token=ALICE if token == "ALICE" else token, method=method, name=name, extra=extra)


def tool(server, name: str, token="ALICE", **params):
    return rpc(server, "tools/call", {"name": name, "arguments": params.pop("arguments", {}), "_meta": META, **params},
               token=token, name=name)


def round_one(server, name: str = REQUEST_STATE, token="ALICE", **params) -> str:
    result = reply(tool(server, name, token=token, **params))["result"]
    assert result["resultType"] == "input_required", result
    return result["requestState"]


def refused(answer) -> None:
    assert answer[0] == 400, answer
    assert reply(answer)["error"] == INVALID_STATE


def test_off_by_default_the_guarded_server_has_no_fixture_and_asks_for_a_token(tmp_path):
    plain = HttpFixture(tmp_path)
    try:
        tools = reply(rpc(plain, "tools/list", {"_meta": META}))["result"]["tools"]
        assert [t["name"] for t in tools] == ["create_guarded_issue", "get_operation_status"]
        assert reply(tool(plain, REQUEST_STATE))["error"]["message"] == f"Unknown tool: {REQUEST_STATE}"
        listed = rpc(plain, "prompts/list", {"_meta": META})
        assert listed[0] == 404 and reply(listed)["error"]["code"] == -32601
        assert tool(plain, "test_simple_text", token=None)[0] == 401
        assert not any("conformance" in line for line in plain.stderr_lines)
    finally:
        assert plain.stop() == 0


def test_without_a_tokens_file_every_request_is_principal_conformance_said_in_one_line(open_profile):
    assert open_profile.stderr_lines[0] == PROFILE_LINE
    assert sum("conformance profile" in line for line in open_profile.stderr_lines) == 1
    assert reply(tool(open_profile, "test_simple_text", token=None))["result"]["content"] == [
        {"type": "text", "text": "This is a simple text response for testing."}]
    # a token is neither asked for nor looked at
    state = round_one(open_profile, token="whatever-token-is-not-read")
    done = reply(tool(open_profile, REQUEST_STATE, token=None, inputResponses=CONFIRM, requestState=state))
    assert done["result"]["content"][0]["text"] == "state-ok: the requestState verified; ok=true"


def test_with_a_tokens_file_the_profile_still_asks_for_a_token(profile):
    assert not any("conformance profile" in line for line in profile.stderr_lines)
    status, headers, _ = tool(profile, "test_simple_text", token=None)
    assert (status, headers["www-authenticate"]) == (401, "Bearer")


def test_the_fixtures_are_listed_beside_the_guarded_tools(open_profile):
    names = [t["name"] for t in reply(rpc(open_profile, "tools/list", {"_meta": META}))["result"]["tools"]]
    assert names[:2] == ["create_guarded_issue", "get_operation_status"]
    assert {REQUEST_STATE, TAMPERED_STATE, ELICITATION, "test_missing_capability", "test_tool_with_progress"} <= set(names)
    prompts = reply(rpc(open_profile, "prompts/list", {"_meta": META}))["result"]
    assert "test_input_required_result_prompt" in [p["name"] for p in prompts["prompts"]]
    assert (prompts["ttlMs"], prompts["cacheScope"]) == (0, "private")


def test_a_fixture_state_is_the_sdks_sealed_token_and_its_round_trip_completes(profile):
    state = round_one(profile)
    assert state.startswith("v1.") and "conformance" not in state and "asked" not in state  # sealed, not signed text
    done = reply(tool(profile, REQUEST_STATE, inputResponses=CONFIRM, requestState=state))["result"]
    assert done["content"][0]["text"].startswith("state-ok")


def test_a_forged_or_altered_state_is_refused(profile):
    state = round_one(profile)
    flipped = state[:-5] + ("A" if state[-5] != "A" else "B") + state[-4:]
    for forged in ("v1." + "A" * 80, flipped, state[:-1], state + "=", state.replace("-", "+").replace("_", "/"),
                   state + "A" * 200_000):
        if forged != state:
            refused(tool(profile, REQUEST_STATE, inputResponses=CONFIRM, requestState=forged))
    for not_a_string in (42, None, [state], {"requestState": state}):
        refused(tool(profile, REQUEST_STATE, inputResponses=CONFIRM, requestState=not_a_string))


def test_a_foreign_state_is_refused_another_fixtures_another_principals_other_arguments_a_guarded_tools(profile):
    state = round_one(profile)
    other_fixture = round_one(profile, TAMPERED_STATE)
    refused(tool(profile, REQUEST_STATE, inputResponses=CONFIRM, requestState=other_fixture))
    refused(tool(profile, TAMPERED_STATE, inputResponses=CONFIRM, requestState=state))
    refused(tool(profile, REQUEST_STATE, token=BOB, inputResponses=CONFIRM, requestState=state))
    refused(tool(profile, REQUEST_STATE, arguments={"x": "other"}, inputResponses=CONFIRM, requestState=state))
    guarded = reply(tool(profile, "create_guarded_issue", arguments={"operation_id": "c-1", "title": "t"}))
    refused(tool(profile, REQUEST_STATE, inputResponses=CONFIRM, requestState=guarded["result"]["requestState"]))
    # and a fixture's state never continues a guarded call
    refused(tool(profile, "create_guarded_issue", arguments={"operation_id": "c-1", "title": "t"},
                 inputResponses={"body": {"action": "accept", "content": {"body": "b"}}}, requestState=state))
    # after all that the state is still good for its own call, principal and arguments
    assert reply(tool(profile, REQUEST_STATE, inputResponses=CONFIRM, requestState=state))["result"]["content"]


def test_a_state_of_another_principal_is_refused_with_tokens_both_ways(profile):
    bobs = round_one(profile, token=BOB)
    refused(tool(profile, REQUEST_STATE, token=ALICE, inputResponses=CONFIRM, requestState=bobs))
    assert "state-ok" in reply(tool(profile, REQUEST_STATE, token=BOB, inputResponses=CONFIRM,
                                    requestState=bobs))["result"]["content"][0]["text"]


def test_a_continuation_without_its_state_is_refused_and_a_prompts_too(profile):
    refused(tool(profile, REQUEST_STATE, inputResponses=CONFIRM))
    prompt = "test_input_required_result_prompt"
    answer = {"user_context": {"action": "accept", "content": {"context": "c"}}}
    refused(rpc(profile, "prompts/get", {"name": prompt, "inputResponses": answer, "_meta": META}, name=prompt))
    first = reply(rpc(profile, "prompts/get", {"name": prompt, "_meta": META}, name=prompt))["result"]
    done = reply(rpc(profile, "prompts/get", {"name": prompt, "inputResponses": answer, "requestState": first["requestState"],
                                              "_meta": META}, name=prompt))["result"]
    assert done["messages"][0]["content"]["text"] == "Use this context: c"


def test_the_state_expires_on_the_real_clock_although_the_sdks_clock_is_pinned(profile):
    state = round_one(profile)
    minted = time.time()
    assert "state-ok" in reply(tool(profile, REQUEST_STATE, inputResponses=CONFIRM,
                                    requestState=state))["result"]["content"][0]["text"]
    time.sleep(max(0.0, minted + STATE_TTL + 0.2 - time.time()))
    refused(tool(profile, REQUEST_STATE, inputResponses=CONFIRM, requestState=state))
    assert profile.said("fixture state refused: expired")


def test_the_elicitation_fixture_issues_no_state_completes_from_its_answers_and_refuses_any_state(profile):
    first = reply(tool(profile, ELICITATION))["result"]
    assert first["resultType"] == "input_required" and "requestState" not in first
    answer = {"user_name": {"action": "accept", "content": {"name": "Ada"}}}
    assert reply(tool(profile, ELICITATION, inputResponses=answer))["result"]["content"][0]["text"] == "Hello, Ada!"
    again = reply(tool(profile, ELICITATION, inputResponses={"other": {"action": "accept"}}))["result"]
    assert again["resultType"] == "input_required"
    refused(tool(profile, ELICITATION, inputResponses=answer, requestState=round_one(profile)))


def test_an_undeclared_capability_is_32021_with_http_400(profile):
    meta = {**META, "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}
    status, _, body = tool(profile, "test_missing_capability", _meta=meta)
    error = json.loads(body)["error"]
    assert (status, error["code"], error["data"]) == (400, -32021, {"requiredCapabilities": {"sampling": {}}})


def test_progress_comes_as_an_event_stream_and_a_silent_reply_stays_json(profile):
    meta = {**META, "progressToken": "p-1"}
    status, headers, body = tool(profile, "test_tool_with_progress", _meta=meta)
    assert status == 200 and headers["content-type"].startswith("text/event-stream"), (headers, body)
    frames = [json.loads(line[5:]) for line in body.decode().splitlines() if line.startswith("data:")]
    progress = [f["params"]["progress"] for f in frames if f.get("method") == "notifications/progress"]
    assert progress == [0, 50, 100]
    assert frames[-1]["result"]["content"][0]["text"] == "Progress tool finished."
    assert tool(profile, "test_tool_with_progress")[1]["content-type"].startswith("application/json")


def test_conformance_without_http_or_a_bad_lifetime_is_one_line_and_exit_2(tmp_path):
    for argv in (["--conformance"], ["--conformance", "--conformance", "--http", "0"]):
        done = subprocess.run([sys.executable, str(SERVER), *argv], capture_output=True, timeout=30, env={})
        assert (done.returncode, done.stderr.decode(), done.stdout) == (2, "--conformance needs --http PORT (and is given once)\n", b"")
    bad = HttpFixtureEnvironment(tmp_path)
    for value, line in (("0", "WIRE_CONFORMANCE_STATE_TTL must be positive\n"),
                        ("soon", "WIRE_CONFORMANCE_STATE_TTL must be numeric\n")):
        done = subprocess.run([sys.executable, str(SERVER), "--http", "0", "--conformance"], capture_output=True, timeout=30,
                              env={**bad, "WIRE_CONFORMANCE_STATE_TTL": value})
        assert (done.returncode, done.stderr.decode()) == (2, line)


def HttpFixtureEnvironment(tmp_path) -> dict:
    from test_fixture_process import FINGERPRINT_KEY, STATE_KEY, T0

    return {"WIRE_SERVER_DB": str(tmp_path / "db"), "WIRE_BACKEND_ID": "b", "WIRE_CLOCK_EPOCH": str(T0),
            "WIRE_AUTHORITY_TTL": "300", "WIRE_REPLAY_RETENTION_TTL": "360", "WIRE_REQUEST_STATE_TTL": "600",
            "WIRE_STATE_KEY_HEX": STATE_KEY, "WIRE_FINGERPRINT_KEY_HEX": FINGERPRINT_KEY}


def test_a_listen_stream_gets_the_trigger_and_ends_with_its_result_on_sigterm_exit_0(tmp_path):
    server = HttpFixture(tmp_path, args=("--http", "0", "--conformance"), tokens_file=False)
    body = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen",
                       "params": {"notifications": {"toolsListChanged": True}, "_meta": META}}).encode()
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
            f"Mcp-Method: subscriptions/listen\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(head + body)
        received = b""
        while b"notifications/subscriptions/acknowledged" not in received:
            chunk = sock.recv(65536)
            assert chunk, received
            received += chunk
        assert reply(tool(server, "test_trigger_tool_change", token=None))["result"]["content"]
        while b"notifications/tools/list_changed" not in received:
            received += sock.recv(65536)
        server.process.send_signal(signal.SIGTERM)
        while chunk := sock.recv(65536):
            received += chunk
    frames = [json.loads(line[5:]) for line in received.decode().splitlines() if line.startswith("data:")]
    assert [f.get("method") for f in frames] == ["notifications/subscriptions/acknowledged",
                                                 "notifications/tools/list_changed", None]
    assert frames[-1]["id"] == 5 and frames[-1]["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 5
    assert all(f.get("params", f.get("result"))["_meta"]["io.modelcontextprotocol/subscriptionId"] == 5 for f in frames)
    assert server.stop() == 0
