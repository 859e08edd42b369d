"""The fixture as a real process over real stdio, with the real Java bridge (bridge/target/bridge.jar) and a real
SQLite file: a two-round guarded call applied once, a lost reply (drop-after-commit) recovered by status and by the
identical retry, refusals of bad input, and the requestState refusals (forged, expired, foreign, changed arguments)
across processes that share the ledger."""

import json
import os
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rule_table import REPO, RULES

SERVER = Path(__file__).resolve().parents[1] / "src" / "server.py"
BRIDGE_JAR = REPO / "bridge" / "target" / "bridge.jar"
T0 = 1790035200
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "py-fixture-test", "version": "0.0.1"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
}
STATE_KEY = "8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc"
OTHER_KEY = "11" * 32
FINGERPRINT_KEY = "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba"
ACCEPT = {"body": {"action": "accept", "content": {"body": "alpha"}}}
INVALID_STATE = {"code": -32602, "message": "Invalid or expired requestState", "data": {"reason": "invalid_request_state"}}

if not BRIDGE_JAR.is_file():  # the module's Maven build packages the bridge first
    pytest.fail(f"{BRIDGE_JAR} is missing: build it with mvn -pl bridge -am package", pytrace=False)


class Fixture:
    def __init__(self, db: Path, args: "tuple[str, ...]" = (), **overrides: str) -> None:
        env = {name: os.environ[name] for name in ("PATH", "LANG", "HOME", "JAVA_HOME", "TMPDIR") if name in os.environ}
        env.update({
            "WIRE_SERVER_DB": str(db), "WIRE_BACKEND_ID": "sqlite:guarded-matrix", "WIRE_PRINCIPAL": "alice",
            "WIRE_CLOCK_EPOCH": str(T0), "WIRE_AUTHORITY_TTL": "300", "WIRE_REPLAY_RETENTION_TTL": "360",
            "WIRE_REQUEST_STATE_TTL": "600", "WIRE_STATE_KEY_HEX": STATE_KEY, "WIRE_FINGERPRINT_KEY_HEX": FINGERPRINT_KEY,
        })
        env.update(overrides)
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self.next_id = 1

    def send_line(self, line: bytes) -> None:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout: float = 30.0) -> "bytes | None":
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            raise AssertionError("no reply in time")
        line = self.process.stdout.readline()
        return line or None

    def request(self, method: str, params: dict) -> dict:
        message_id = self.next_id
        self.next_id += 1
        self.send_line(json.dumps({"jsonrpc": "2.0", "id": message_id, "method": method,
                                   "params": {**params, "_meta": META}}).encode())
        line = self.read_line()
        assert line is not None, "the fixture ended without a reply"
        reply = json.loads(line)
        assert reply["id"] == message_id
        return reply

    def call(self, name: str, arguments: dict, **extra) -> dict:
        return self.request("tools/call", {"name": name, "arguments": arguments, **extra})

    def first_round(self, operation_id: str, title: str = "t") -> str:
        result = self.call("create_guarded_issue", {"operation_id": operation_id, "title": title})["result"]
        assert result["resultType"] == "input_required"
        assert result["inputRequests"]["body"]["method"] == "elicitation/create"
        return result["requestState"]

    def continuation(self, operation_id: str, state: str, title: str = "t", responses=ACCEPT, **arguments) -> dict:
        return self.call("create_guarded_issue", {"operation_id": operation_id, "title": title, **arguments},
                         inputResponses=responses, requestState=state)

    def close(self) -> int:
        if self.process.stdout.closed:
            return self.process.returncode
        if self.process.poll() is None:
            self.process.stdin.close()
        code = self.process.wait(timeout=30)
        self.stderr = self.process.stderr.read().decode("utf-8", "replace")
        self.process.stdout.close()
        self.process.stderr.close()
        return code


@pytest.fixture
def db(tmp_path):
    return tmp_path / "store.sqlite3"


@pytest.fixture
def fixture(db):
    started = Fixture(db)
    yield started
    started.close()


def structured(reply: dict) -> dict:
    result = reply["result"]
    assert result["resultType"] == "complete" and result["isError"] is False, reply
    return result["structuredContent"]


def tool_error(reply: dict) -> str:
    result = reply["result"]
    assert result["isError"] is True, reply
    return result["content"][0]["text"]


def issues(db: Path) -> int:
    """Rows in the ledger's issues table; 0 while the bridge has not created the database (read-only, never creates)."""
    if not db.exists():
        return 0
    connection = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in connection.execute("select name from sqlite_master where type='table'")}
        return connection.execute("select count(*) from issues").fetchone()[0] if "issues" in tables else 0
    finally:
        connection.close()


def test_the_unguarded_control_binds_its_state_and_writes_again_on_every_continuation(db):
    control = Fixture(db, args=("--unguarded",))
    try:
        tools = control.request("tools/list", {})["result"]["tools"]
        assert [tool["name"] for tool in tools] == ["create_issue"]
        first = control.call("create_issue", {"title": "control"})["result"]
        assert first["resultType"] == "input_required"
        state = first["requestState"]
        assert control.call("create_issue", {"title": "other"}, inputResponses=ACCEPT, requestState=state)["error"] == INVALID_STATE
        assert control.call("create_guarded_issue", {"operation_id": "x", "title": "control"})["error"]["code"] == -32602
        declined = {"body": {"action": "decline"}}
        assert tool_error(control.call("create_issue", {"title": "control"}, inputResponses=declined, requestState=state))
        assert issues(db) == 0
        # The same continuation twice: two issues, the duplicate the guard exists to prevent.
        once = control.call("create_issue", {"title": "control"}, inputResponses=ACCEPT, requestState=state)
        assert structured(once) == {"issueId": 1, "result": "created 1"}
        twice = control.call("create_issue", {"title": "control"}, inputResponses=ACCEPT, requestState=state)
        assert structured(twice) == {"issueId": 2, "result": "created 2"}
        assert issues(db) == 2
    finally:
        assert control.close() == 0


def test_tools_list_names_the_two_tools(fixture):
    tools = fixture.request("tools/list", {})["result"]["tools"]
    assert [t["name"] for t in tools] == ["create_guarded_issue", "get_operation_status"]
    # the fixture process lists the shared table's tools, member for member
    assert tools == json.loads((RULES / "tools.json").read_text(encoding="utf-8"))["guarded"]


def test_a_two_round_call_applies_once_and_an_identical_retry_replays(fixture, db):
    state = fixture.first_round("op-1")
    first = structured(fixture.continuation("op-1", state))
    assert (first["operationId"], first["replayed"], first["state"]) == ("op-1", False, "applied")
    again = structured(fixture.continuation("op-1", state))
    assert again["replayed"] is True and again["effectId"] == first["effectId"]
    assert issues(db) == 1
    status = structured(fixture.call("get_operation_status", {"operation_id": "op-1"}))
    assert (status["state"], status["principal"], status["authoritative"]) == ("applied", "alice", True)


@pytest.mark.parametrize("capabilities", [{}, {"elicitation": {"url": {}}}, {"elicitation": None}, {"sampling": {}}])
def test_a_client_that_did_not_declare_form_elicitation_gets_32021_and_no_effect(fixture, db, capabilities):
    meta = {**META, "io.modelcontextprotocol/clientCapabilities": capabilities}
    fixture.send_line(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {
        "name": "create_guarded_issue", "arguments": {"operation_id": "op-cap", "title": "t"}, "_meta": meta}}).encode())
    reply = json.loads(fixture.read_line())
    assert reply["id"] == 99 and reply["error"]["code"] == -32021, reply
    assert reply["error"]["data"] == {"requiredCapabilities": {"elicitation": {"form": {}}}}
    assert issues(db) == 0
    # an empty elicitation object means form, and the same connection keeps serving
    assert fixture.first_round("op-cap")


def test_a_lost_reply_is_recovered_by_status_and_by_the_identical_retry(db):
    dropping = Fixture(db, WIRE_FAULT="drop-after-commit")
    state = dropping.first_round("op-lost")
    dropping.send_line(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {
        "name": "create_guarded_issue", "arguments": {"operation_id": "op-lost", "title": "t"},
        "inputResponses": ACCEPT, "requestState": state, "_meta": META}}).encode())
    assert dropping.read_line() is None  # no reply: the process ended after the commit
    assert dropping.close() == 70
    assert "drop-after-commit" in dropping.stderr
    assert issues(db) == 1

    recovering = Fixture(db)
    try:
        status = structured(recovering.call("get_operation_status", {"operation_id": "op-lost"}))
        assert status["state"] == "applied" and status["freshWriteAuthorized"] is False
        retry = structured(recovering.continuation("op-lost", state))  # the state sealed by the dead process
        assert retry["replayed"] is True
        assert issues(db) == 1
    finally:
        assert recovering.close() == 0


def test_bad_input_is_refused_before_any_effect(fixture, db):
    state = fixture.first_round("op-bad")
    declined = {"body": {"action": "decline"}}
    assert tool_error(fixture.continuation("op-bad", state, responses=declined)) == "body response must be accepted text"
    assert tool_error(fixture.continuation("op-bad", state, responses={})) == "missing body input response"
    assert tool_error(fixture.call("create_guarded_issue", {"operation_id": "", "title": "t"})) == \
        "operation_id and title are required"
    assert tool_error(fixture.call("create_guarded_issue", {"operation_id": "o", "title": "t", "mode": "eager"})) == \
        "mode must be 'atomic' or 'partial'"
    assert tool_error(fixture.call("create_guarded_issue", {"operation_id": "o", "title": "t"}, inputResponses=ACCEPT)) == \
        "unsupported continuation: input responses require requestState"
    assert tool_error(fixture.call("create_guarded_issue", {"operation_id": "op-bad", "title": "t"}, requestState=state)) == \
        "requestState without input responses"
    assert structured(fixture.call("get_operation_status", {"operation_id": "op-bad"}))["state"] != "applied"
    assert issues(db) == 0
    # The frame gate: invalid UTF-8 inside a continuation is answered -32700, never processed.
    line = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "create_guarded_issue", "arguments": {"operation_id": "op-bad", "title": "t"},
        "inputResponses": {"body": {"action": "accept", "content": {"body": "a@b"}}}, "requestState": state,
        "_meta": META}}).encode().replace(b"a@b", b"a\xffb")
    fixture.send_line(line)
    assert json.loads(fixture.read_line()) == {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}}
    assert fixture.request("tools/list", {})["result"]["tools"]  # still serving
    assert issues(db) == 0


def test_forged_changed_and_foreign_states_are_the_sdks_frozen_refusal(fixture, db):
    state = fixture.first_round("op-s", title="original")
    forged = state[:-4] + ("AAAA" if not state.endswith("AAAA") else "BBBB")
    for bad in [forged, state + "=", state + "\n", "v1.", "", "x" * 100]:
        assert fixture.continuation("op-s", bad, title="original")["error"] == INVALID_STATE, bad
    assert fixture.continuation("op-s", state, title="changed")["error"] == INVALID_STATE
    assert fixture.continuation("op-t", state, title="original")["error"] == INVALID_STATE
    assert issues(db) == 0

    for overrides in [{"WIRE_PRINCIPAL": "bob"}, {"WIRE_STATE_KEY_HEX": OTHER_KEY},
                      {"WIRE_CLOCK_EPOCH": str(T0 + 600)}, {"WIRE_CLOCK_EPOCH": str(T0 + 86400)}]:
        other = Fixture(db, **overrides)
        try:
            assert other.continuation("op-s", state, title="original")["error"] == INVALID_STATE, overrides
        finally:
            other.close()
    assert issues(db) == 0

    # The last second of the state's life: the SDK opens it, and the guard refuses it (the authority lasts 300 s).
    last = Fixture(db, WIRE_CLOCK_EPOCH=str(T0 + 599))
    try:
        assert tool_error(last.continuation("op-s", state, title="original")) == "operation_authority_expired"
    finally:
        last.close()
    later = Fixture(db, WIRE_CLOCK_EPOCH=str(T0 + 299))  # within the authority, in a new process
    try:
        assert structured(later.continuation("op-s", state, title="original"))["replayed"] is False
    finally:
        later.close()
    assert issues(db) == 1


def test_a_bad_configuration_is_one_stderr_line_and_exit_2(db):
    bad = Fixture(db, WIRE_AUTHORITY_TTL="soon")
    assert bad.close() == 2
    assert bad.stderr == "WIRE_AUTHORITY_TTL must be numeric\n"


def test_end_of_input_ends_the_fixture_and_its_bridge(fixture):
    fixture.request("tools/list", {})
    started = time.monotonic()
    assert fixture.close() == 0
    assert time.monotonic() - started < 20


def test_the_sdk_binds_the_arguments_as_spelt(fixture, db):
    """docs/findings/python-sdk-2.3.0.md, 2: a spelt-out default or an extra argument is another request to the SDK."""
    state = fixture.first_round("op-spelt")
    assert fixture.continuation("op-spelt", state, mode="atomic")["error"] == INVALID_STATE
    assert fixture.continuation("op-spelt", state, extra=1)["error"] == INVALID_STATE
    assert structured(fixture.continuation("op-spelt", state))["replayed"] is False
    assert issues(db) == 1


def test_ping_with_an_envelope_is_method_not_found(fixture):
    assert fixture.request("ping", {})["error"] == {"code": -32601, "message": "Method not found", "data": "ping"}


def test_a_handshake_era_initialize_is_refused_and_the_connection_keeps_serving_2026_07_28(fixture, db):
    """Without the gate's refusal the SDK opens a 2025 handshake session on an initialize and then refuses every
    enveloped request (docs/findings/python-sdk-2.3.0.md, 4); with it, the client learns -32022 at once."""
    fixture.send_line(json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "legacy", "version": "0"}}}).encode())
    refused = json.loads(fixture.read_line())
    assert refused == {"jsonrpc": "2.0", "id": "init", "error": {"code": -32022, "message": "Unsupported protocol version",
                                                                  "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}}
    assert [tool["name"] for tool in fixture.request("tools/list", {})["result"]["tools"]] != []
    operation = "op-after-legacy-initialize"
    state = fixture.first_round(operation)
    assert structured(fixture.continuation(operation, state))["state"] == "applied"
    assert issues(db) == 1
