"""HTTP mode as a real process on real sockets, with the real Java bridge and an SQLite file: the order of the gate's
refusals (431, 403, 404, 503, 401, 415, 413, 400, 408), a guarded two-round call applied once and replayed, another principal's
requestState refused without an effect, one bridge per principal, close-after-commit, a bad configuration, and a
clean stop on SIGTERM (bridges ended, exit 0). Requests are written as raw HTTP/1.1 bytes, so nothing is retried or
re-spelt by a client library."""

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from test_fixture_process import FINGERPRINT_KEY, INVALID_STATE, META, SERVER, STATE_KEY, T0

ALICE = "alice-token-0123456789abcdef0123456789abcdef"
BOB = "bob-token-0123456789abcdef0123456789abcdef012"
SERVING = re.compile(r"serving (http://127\.0\.0\.1:([0-9]+)/mcp)")


def exchange(port: int, data: bytes, timeout: float) -> bytes:
    """Sends `data` on a new connection and reads until the server closes it (or resets it: what came before counts)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                return received
            if not chunk:
                return received
            received += chunk


class HttpFixture:
    def __init__(self, tmp: Path, *, args: "tuple[str, ...]" = ("--http", "0"), tokens_file: bool = True,
                 **overrides: str) -> None:
        tokens = tmp / "tokens.json"
        tokens.write_text(json.dumps({"alice": ALICE, "bob": BOB}))
        self.db = tmp / "store.sqlite3"
        env = {name: os.environ[name] for name in ("PATH", "LANG", "HOME", "JAVA_HOME", "TMPDIR") if name in os.environ}
        env.update({
            "WIRE_SERVER_DB": str(self.db), "WIRE_BACKEND_ID": "sqlite:guarded-matrix", "WIRE_CLOCK_EPOCH": str(T0),
            "WIRE_AUTHORITY_TTL": "300", "WIRE_REPLAY_RETENTION_TTL": "360", "WIRE_REQUEST_STATE_TTL": "600",
            "WIRE_STATE_KEY_HEX": STATE_KEY, "WIRE_FINGERPRINT_KEY_HEX": FINGERPRINT_KEY,
        })
        if tokens_file:
            env["WIRE_BEARER_TOKENS_FILE"] = str(tokens)
        env.update(overrides)
        self.process = subprocess.Popen([sys.executable, str(SERVER), *args], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.stderr_lines: "list[str]" = []
        found = None
        while found is None:  # the lines before the ready line (the conformance profile's one) are kept
            line = self.process.stderr.readline().decode()
            assert line, "".join(self.stderr_lines) + self.process.stderr.read().decode()
            self.stderr_lines.append(line)
            found = SERVING.search(line)
        self.port = int(found.group(2))
        threading.Thread(target=self._drain, daemon=True).start()
        self.next_id = 1

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))

    def said(self, fragment: str, within: float = 10.0) -> bool:
        """Whether a stderr line holds the fragment; the drain thread may read a line the server wrote before its
        reply only after the reply has arrived here, so the lines are looked at again until the deadline."""
        deadline = time.monotonic() + within
        while True:
            if any(fragment in line for line in list(self.stderr_lines)):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    def raw(self, data: bytes, timeout: float = 30.0) -> "tuple[int, dict, bytes] | None":
        """One exchange on a new connection; None when the connection closed without a status line."""
        received = exchange(self.port, data, timeout)
        if not received:
            return None
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return int(lines[0].split(" ")[1]), headers, body

    def post(self, body: bytes, token: "str | None" = ALICE, path: str = "/mcp", host: str = "127.0.0.1",
             extra: "dict[str, str] | None" = None, method: str = "tools/call", name: "str | None" = None):
        headers = {"Host": f"{host}:{self.port}", "Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28",
                   "Mcp-Method": method, "Content-Length": str(len(body)), "Connection": "close"}
        if name is not None:
            headers["Mcp-Name"] = name
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        headers.update(extra or {})
        head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        return self.raw(head.encode("latin-1") + body)

    def call(self, tool: str, arguments: dict, token: str = ALICE, **extra):
        message_id = self.next_id
        self.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": message_id, "method": "tools/call",
                           "params": {"name": tool, "arguments": arguments, **extra, "_meta": META}}).encode()
        return self.post(body, token=token, name=tool)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=30)
        self.process.stdout.close()
        return code

    def bridge_pids(self) -> "list[int]":
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []


def reply(answer) -> dict:
    status, headers, body = answer
    assert headers["content-type"].startswith("application/json"), (status, headers, body)
    return json.loads(body)


def effects(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as connection:
        tables = {row[0] for row in connection.execute("select name from sqlite_master where type='table'")}
        return connection.execute("select count(*) from issues").fetchone()[0] if "issues" in tables else 0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = HttpFixture(tmp_path_factory.mktemp("http"))
    yield started
    started.stop()


ACCEPT = {"body": {"action": "accept", "content": {"body": "alpha"}}}


def test_a_guarded_call_commits_once_and_its_identical_retry_replays(server):
    args = {"operation_id": "h-1", "title": "t"}
    first = reply(server.call("create_guarded_issue", args))["result"]
    assert first["resultType"] == "input_required"
    state = first["requestState"]
    applied = server.call("create_guarded_issue", args, inputResponses=ACCEPT, requestState=state)
    assert applied[0] == 200
    assert reply(applied)["result"]["structuredContent"]["replayed"] is False
    again = reply(server.call("create_guarded_issue", args, inputResponses=ACCEPT, requestState=state))
    assert again["result"]["structuredContent"]["replayed"] is True
    assert effects(server.db) == 1


def test_another_principals_request_state_is_refused_without_an_effect(server):
    args = {"operation_id": "h-2", "title": "t"}
    state = reply(server.call("create_guarded_issue", args))["result"]["requestState"]
    before = effects(server.db)
    refused = server.call("create_guarded_issue", args, token=BOB, inputResponses=ACCEPT, requestState=state)
    assert refused[0] == 400  # the SDK maps -32602 to HTTP 400 (the Java server does the same)
    assert reply(refused)["error"] == INVALID_STATE
    assert effects(server.db) == before
    # the state is still good for its own principal
    applied = reply(server.call("create_guarded_issue", args, inputResponses=ACCEPT, requestState=state))
    assert applied["result"]["structuredContent"]["replayed"] is False


def test_each_principal_gets_its_own_bridge(server):
    alice = reply(server.call("get_operation_status", {"operation_id": "h-1"}))["result"]["structuredContent"]
    bob = reply(server.call("get_operation_status", {"operation_id": "h-1"}, token=BOB))["result"]["structuredContent"]
    assert alice["principal"] == "alice" and bob["principal"] == "bob"
    assert len(server.bridge_pids()) == 2


def test_the_gate_refuses_in_its_order_before_the_sdk(server):
    status_call = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}}).encode()
    # a foreign Host is 403 even on a wrong path and without a token
    status, headers, body = server.post(status_call, token=None, path="/nope", host="evil.example")
    assert (status, body) == (403, b"forbidden: Host and Origin must be this loopback server\n")
    assert server.post(status_call, extra={"Origin": "http://evil.example"})[0] == 403
    # a wrong path is 404 before the token is looked at
    assert server.post(status_call, token=None, path="/other")[:3:2] == (404, b"not found\n")
    status, headers, body = server.post(status_call, token=None)
    assert (status, headers["www-authenticate"], body) == (401, "Bearer", b"unauthorized\n")
    status, headers, _ = server.post(status_call, token="x" * 40)
    assert (status, headers["www-authenticate"]) == (401, 'Bearer error="invalid_token"')
    assert server.post(b"{" * 10, extra={"Content-Length": str(5 * 1024 * 1024)})[0] == 413


def test_a_chunked_body_over_4_mib_is_read_and_refused(server):
    chunk = b"x" * (1024 * 1024)
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(5)) + b"0\r\n\r\n"
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {ALICE}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode()
    status, _, text = server.raw(head + body)
    assert (status, text) == (413, b"request body over 4 MiB\n")


@pytest.mark.parametrize(
    "body, line",
    [
        (b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x\xff"}}',
         '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}'),
        (b"[]", '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}'),
        (b'{"id":7,"method":"tools/call"}', '{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}'),
    ],
)
def test_a_body_the_gate_refuses_gets_400_and_has_no_effect(server, body, line):
    before = effects(server.db)
    status, headers, text = server.post(body, name="create_guarded_issue")
    assert (status, headers["content-type"], text.decode()) == (400, "application/json", line)
    assert effects(server.db) == before


def test_the_handshake_era_is_refused_before_the_sdks_legacy_transport(server):
    initialize = json.dumps({"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).encode()
    status, _, body = server.post(initialize, extra={"MCP-Protocol-Version": "2025-06-18"}, method="initialize")
    assert (status, json.loads(body)) == (400, {"jsonrpc": "2.0", "id": 4, "error": {
        "code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2026-07-28"], "requested": "2025-06-18"}}})
    # a GET without the header would open the legacy transport's event stream and hold it
    status, _, body = server.raw(f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ALICE}\r\n"
                                 "Connection: close\r\n\r\n".encode(), timeout=10)
    assert status == 400 and json.loads(body)["error"]["data"]["requested"] == ""
    status, headers, _ = server.raw(f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ALICE}\r\n"
                                    "MCP-Protocol-Version: 2026-07-28\r\nConnection: close\r\n\r\n".encode())
    assert (status, headers["allow"]) == (405, "POST")


def test_no_answer_names_the_server_software(server):
    status, headers, _ = server.post(b"{}", token=None)
    assert status == 401 and "server" not in headers and "date" not in headers


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    started = HttpFixture(tmp_path_factory.mktemp("faulty"), WIRE_FAULT="close-after-commit",
                          WIRE_HTTP_READ_TIMEOUT_MS="1500")
    yield started
    started.stop()


def test_close_after_commit_loses_the_reply_and_keeps_serving(faulty):
    args = {"operation_id": "f-1", "title": "t"}
    state = reply(faulty.call("create_guarded_issue", args))["result"]["requestState"]
    assert faulty.call("create_guarded_issue", args, inputResponses=ACCEPT, requestState=state) is None
    status = reply(faulty.call("get_operation_status", {"operation_id": "f-1"}))["result"]["structuredContent"]
    assert status["state"] == "applied"
    replay = reply(faulty.call("create_guarded_issue", args, inputResponses=ACCEPT, requestState=state))
    assert replay["result"]["structuredContent"]["replayed"] is True
    assert effects(faulty.db) == 1


def test_a_request_not_received_in_time_is_408_and_the_server_serves_others(faulty):
    slow = socket.create_connection(("127.0.0.1", faulty.port), timeout=10)
    try:
        slow.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ALICE}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode())
        assert reply(faulty.call("get_operation_status", {"operation_id": "f-0"}))["result"]
        answer = slow.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408 "), answer
    finally:
        slow.close()
    # a head that never ends gets the same
    with socket.create_connection(("127.0.0.1", faulty.port), timeout=10) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 408 ")


def test_64_requests_in_flight_make_the_next_one_wait_with_503(faulty):
    held = []
    try:
        for _ in range(64):
            sock = socket.create_connection(("127.0.0.1", faulty.port), timeout=10)
            sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ALICE}\r\n"
                         "Content-Type: application/json\r\nContent-Length: 10\r\n\r\n".encode())
            held.append(sock)
        # The held requests reach their handler in their own time on a loaded machine: ask until refused (401 until
        # then, no token), within the 1.5 s read timeout that ends them.
        deadline = time.monotonic() + 1.2
        status, headers, body = faulty.post(b"{}", token=None)
        while status != 503 and time.monotonic() < deadline:
            time.sleep(0.05)
            status, headers, body = faulty.post(b"{}", token=None)
        assert (status, headers.get("retry-after"), body) == (503, "1", b"too many requests in flight\n")
    finally:
        for sock in held:
            sock.close()


def test_the_unguarded_control_over_http_binds_the_principal_and_writes_on_every_continuation(tmp_path):
    control = HttpFixture(tmp_path, args=("--http", "0", "--unguarded"))
    try:
        assert control.call("create_issue", {"title": "c"}, token="nobody-0123456789abcdef0123456789abcdef")[0] == 401
        first = reply(control.call("create_issue", {"title": "c"}))["result"]
        assert first["resultType"] == "input_required"
        state = first["requestState"]
        assert reply(control.call("create_issue", {"title": "c"}, token=BOB, inputResponses=ACCEPT,
                                  requestState=state))["error"] == INVALID_STATE
        for issue_id in (1, 2):  # the same continuation twice: two issues, the duplicate the guard prevents
            created = reply(control.call("create_issue", {"title": "c"}, inputResponses=ACCEPT, requestState=state))
            assert created["result"]["structuredContent"] == {"issueId": issue_id, "result": f"created {issue_id}"}
        assert effects(control.db) == 2
    finally:
        assert control.stop() == 0


def test_sigterm_ends_the_bridges_and_exits_0(tmp_path):
    fixture = HttpFixture(tmp_path)
    reply(fixture.call("get_operation_status", {"operation_id": "s-1"}))
    bridges = fixture.bridge_pids()
    assert len(bridges) == 1
    assert fixture.stop() == 0
    for pid in bridges:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_a_bad_tokens_file_is_one_line_and_exit_2(tmp_path):
    tokens = tmp_path / "bad.json"
    tokens.write_text(json.dumps({"alice": ALICE, "bob": ALICE}))
    env = {name: os.environ[name] for name in ("PATH", "LANG", "HOME") if name in os.environ}
    env.update({"WIRE_SERVER_DB": str(tmp_path / "db"), "WIRE_BACKEND_ID": "b", "WIRE_CLOCK_EPOCH": str(T0),
                "WIRE_AUTHORITY_TTL": "300", "WIRE_REPLAY_RETENTION_TTL": "360", "WIRE_REQUEST_STATE_TTL": "600",
                "WIRE_STATE_KEY_HEX": STATE_KEY, "WIRE_FINGERPRINT_KEY_HEX": FINGERPRINT_KEY,
                "WIRE_BEARER_TOKENS_FILE": str(tokens)})
    done = subprocess.run([sys.executable, str(SERVER), "--http", "0"], env=env, capture_output=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.decode() == 'WIRE_BEARER_TOKENS_FILE: principals "alice" and "bob" share a token\n'
    assert done.stdout == b""
    for argv, line in ((["--http", "65536"], "--http needs a port from 0 to 65535\n"),
                       (["--nope"], "unknown arguments --nope (none for stdio, or --http PORT [--conformance], or --unguarded)\n"),
                       (["--http", "0", "--conformance", "--unguarded"],
                        "--unguarded serves the control, which has no conformance fixtures (and is given once)\n"),
                       (["--unguarded", "--unguarded"],
                        "--unguarded serves the control, which has no conformance fixtures (and is given once)\n")):
        refused = subprocess.run([sys.executable, str(SERVER), *argv], env=env, capture_output=True, timeout=30)
        assert (refused.returncode, refused.stderr.decode()) == (2, line)


def continuation(server, operation_id: str) -> bytes:
    """The body of a continuation that would commit `operation_id` (its round one done first)."""
    args = {"operation_id": operation_id, "title": "t"}
    state = reply(server.call("create_guarded_issue", args))["result"]["requestState"]
    return json.dumps({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {
        "name": "create_guarded_issue", "arguments": args, "inputResponses": ACCEPT, "requestState": state,
        "_meta": META}}).encode()


@pytest.mark.parametrize("content_type", ["application/jsonx", "application/json-seq", "text/plain", None])
def test_a_content_type_other_than_json_is_415_without_an_effect(server, content_type):
    body = continuation(server, f"h-ct-{content_type}")
    before = effects(server.db)
    extra = {"Content-Type": content_type} if content_type is not None else {}
    head_body = server.post(body, name="create_guarded_issue", extra=extra) if content_type is not None else None
    if content_type is None:
        # post() always sends one; write this request without it
        head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {ALICE}\r\n"
                "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                "Mcp-Method: tools/call\r\nMcp-Name: create_guarded_issue\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        head_body = server.raw(head + body)
    status, _, text = head_body
    assert (status, text) == (415, b"unsupported media type: Content-Type must be application/json\n")
    assert effects(server.db) == before


def test_two_content_types_are_415_and_a_charset_parameter_passes(server):
    body = continuation(server, "h-ct-two")
    before = effects(server.db)
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {ALICE}\r\n"
            "Content-Type: application/json\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
            "Mcp-Method: tools/call\r\nMcp-Name: create_guarded_issue\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    assert server.raw(head + body)[0] == 415
    assert effects(server.db) == before
    applied = server.post(body, name="create_guarded_issue", extra={"Content-Type": "Application/JSON; charset=utf-8"})
    assert reply(applied)["result"]["structuredContent"]["replayed"] is False
    assert effects(server.db) == before + 1


def test_more_than_100_headers_are_431_without_an_effect(server):
    body = continuation(server, "h-many-headers")
    before = effects(server.db)
    # 9 headers of post() and 92 more: 101 short headers, a head of about 3 KiB, so only the count refuses it
    status, _, text = server.post(body, name="create_guarded_issue", extra={f"X-Many-{i}": "v" for i in range(92)})
    assert (status, text) == (431, b"request header fields too large\n")
    assert effects(server.db) == before
    # 100 are fine
    applied = server.post(body, name="create_guarded_issue", extra={f"X-Many-{i}": "v" for i in range(91)})
    assert reply(applied)["result"]["structuredContent"]["replayed"] is False


def test_a_complete_head_over_16_kib_is_431_without_an_effect(server):
    body = continuation(server, "h-big-header")
    before = effects(server.db)
    # 17 KiB in one header: if the head arrives in one read the gate measures it (431); if it arrives in two, h11's
    # limit on an incomplete head refuses it first (uvicorn's 400, closed). Either is a refusal with no effect.
    answer = server.post(body, name="create_guarded_issue", extra={"X-Padding": "p" * (17 * 1024)})
    assert answer is None or answer[0] in (400, 431), answer
    assert effects(server.db) == before
    # 15 KiB is served
    applied = server.post(body, name="create_guarded_issue", extra={"X-Padding": "p" * (15 * 1024)})
    assert reply(applied)["result"]["structuredContent"]["replayed"] is False


def test_an_unfinished_head_over_16_kib_is_400_and_closed(server):
    head = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Padding: ".encode() + b"p" * (20 * 1024)
    received = exchange(server.port, head, 30)
    assert received.startswith(b"HTTP/1.1 400 "), received
    assert received.endswith(b"Invalid HTTP request received."), received
