"""The script check of the Python driver: every refusal names where and what, before anything starts."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path.insert(0, str(SRC))

from py_client.script import HttpServer, Parallel, ScriptError, parse_script, tamper  # noqa: E402

TOKEN = "t" * 40
ENV = {"LAB_TOKEN": TOKEN, "SHORT": "s" * 31, "SPACED": "a b" + "c" * 40}


def script(steps: list, servers: dict | None = None, **top: object) -> str:
    document = {"format": "client-script/1",
                "servers": servers if servers is not None else {"srv": {"command": ["true"], "env": {}}},
                "request_timeout_ms": 3000, "version_mode": "pin", "steps": steps}
    document.update(top)
    return json.dumps(document)


CONNECT = {"op": "connect", "connection": "a", "server": "srv"}
ROUND_ONE = {"op": "call_once", "connection": "a", "tool": "t", "arguments": {}, "save_state": "s1"}


def refused(text: str) -> str:
    with pytest.raises(ScriptError) as caught:
        parse_script(text, ENV)
    return str(caught.value)


def test_a_whole_script_is_read():
    parsed = parse_script(script([CONNECT, ROUND_ONE,
                                  {"op": "call_once", "connection": "a", "tool": "t", "arguments": {"x": 1},
                                   "input_responses": {"body": {"action": "accept"}}, "state": "s1",
                                   "state_transform": "tamper", "ts_api": "request"},
                                  {"op": "connect", "connection": "b", "server": "srv"},
                                  {"op": "parallel", "steps": [{"op": "status", "connection": "a", "operation_id": "o"},
                                                               {"op": "list_tools", "connection": "b"}]},
                                  {"op": "close", "connection": "a"}]), ENV)
    assert parsed.request_timeout_ms == 3000
    assert parsed.steps[2].state_transform == "tamper"
    assert isinstance(parsed.steps[4], Parallel)
    assert [s.id for s in parsed.steps[4].steps] == ["4.0", "4.1"]


@pytest.mark.parametrize("text, line", [
    ("{", "script error: not JSON"),
    ("[]", "script error: the script must be a JSON object"),
    (script([], format="client-script/2"), 'script error: format must be "client-script/1" (got "client-script/2")'),
    (script([], extra=1), 'script error: unknown member "extra"'),
    (script([], request_timeout_ms=0), "script error: request_timeout_ms must be null or a positive whole number"),
    (script([], request_timeout_ms=True), "script error: request_timeout_ms must be null or a positive whole number"),
    (script([], request_timeout_ms=1.5), "script error: request_timeout_ms must be null or a positive whole number"),
    (script([], version_mode="latest"), 'script error: version_mode must be one of "pin", "auto", "default"'),
    (script([], servers={"srv": {"command": []}}), "script error: servers.srv: command must be a non-empty array"),
    (script([], servers={"srv": {"command": ["x"], "env": {"A": 1}}}), "script error: servers.srv: env.A must be a string"),
    (script([{"op": "jump", "connection": "a"}]), 'script error: step 0: unknown op "jump"'),
    (script([{"connection": "a"}]), "script error: step 0: op is required"),
    (script([{"op": "connect", "connection": "a", "server": "nope"}]), 'script error: step 0 (connect): unknown server "nope"'),
    (script([{"op": "list_tools", "connection": "a"}]),
     'script error: step 0 (list_tools): connection "a" is used before it is connected'),
    (script([CONNECT, CONNECT]), 'script error: step 1 (connect): connection "a" is already connected'),
    (script([CONNECT, {"op": "close", "connection": "a"}, {"op": "list_tools", "connection": "a"}]),
     'script error: step 2 (list_tools): connection "a" is used before it is connected'),
    (script([CONNECT, {**ROUND_ONE, "save_state": None}]),
     "script error: step 1 (call_once): save_state must be a non-empty string"),
    (script([CONNECT, {"op": "call_once", "connection": "a", "tool": "t", "arguments": {}, "state": "s9"}]),
     'script error: step 1 (call_once): state "s9" is used before it is saved'),
    (script([CONNECT, {"op": "call_once", "connection": "a", "tool": "t", "arguments": {}, "state_transform": "none"}]),
     "script error: step 1 (call_once): state_transform needs a state"),
    (script([CONNECT, {**ROUND_ONE, "ts_api": "fetch"}]),
     'script error: step 1 (call_once): ts_api must be one of "callTool", "request"'),
    (script([CONNECT, {"op": "call", "connection": "a", "tool": "t", "arguments": [], "answer": {}}]),
     "script error: step 1 (call): arguments must be an object"),
    (script([CONNECT, {"op": "status", "connection": "a", "operation_id": "o", "tool": "x"}]),
     'script error: step 1 (status): unknown member "tool"'),
    (script([CONNECT, {"op": "parallel", "steps": []}]), "script error: step 1 (parallel): steps must be a non-empty array"),
    (script([CONNECT, {"op": "parallel", "steps": [{"op": "parallel", "steps": []}]}]),
     "script error: step 1.0 (parallel): a parallel step cannot contain another one"),
    (script([CONNECT, {"op": "parallel", "steps": [{"op": "list_tools", "connection": "a"},
                                                    {"op": "status", "connection": "a", "operation_id": "o"}]}]),
     'script error: step 1.1 (status): connection "a" is already used by step 1.0 of this parallel step'),
    # A state saved inside a parallel step is not there for its sibling.
    (script([CONNECT, {"op": "connect", "connection": "b", "server": "srv"},
              {"op": "parallel", "steps": [ROUND_ONE, {"op": "call_once", "connection": "b", "tool": "t", "arguments": {},
                                                       "state": "s1"}]}]),
     'script error: step 2.1 (call_once): state "s1" is used before it is saved'),
])
def test_a_bad_script_is_refused_with_one_line(text: str, line: str):
    message = refused(text)
    assert message.startswith(line), message
    assert "\n" not in message


@pytest.mark.parametrize("entry, line", [
    ({"url": "http://example.com/mcp", "bearer_token_env": "LAB_TOKEN"},
     "url must name a loopback host (127.0.0.1, localhost or [::1]), not example.com"),
    ({"url": "http://127.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}, "url must name a loopback host"),
    ({"url": "https://127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}, "url must be an http:// URL"),
    ({"url": "http://user:pw@127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}, "url must not carry user information"),
    ({"url": "http://127.0.0.1:0/mcp", "bearer_token_env": "LAB_TOKEN"}, "url has port 0, outside 1..65535"),
    ({"url": "http://127.0.0.1:80 80/mcp", "bearer_token_env": "LAB_TOKEN"}, "url is not a URL"),
    ({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "MISSING"},
     "bearer_token_env MISSING is not set in the driver's environment"),
    ({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "SHORT"},
     "bearer_token_env SHORT holds a token shorter than 32 characters"),
    ({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "SPACED"},
     "bearer_token_env SPACED holds a character other than printable ASCII (no spaces)"),
    ({"url": "http://127.0.0.1:8080/mcp"}, "bearer_token_env is required"),
    ({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN", "command": ["x"]}, 'unknown member "command"'),
])
def test_a_bad_http_entry_is_refused_without_the_token(entry: dict, line: str):
    message = refused(script([], servers={"web": entry}))
    assert message.startswith("script error: servers.web: " + line), message
    assert TOKEN not in message and "pw" not in message


def test_an_http_entry_keeps_its_token_out_of_repr():
    parsed = parse_script(script([], servers={"web": {"url": "http://[::1]:8080/mcp", "bearer_token_env": "LAB_TOKEN"}}), ENV)
    server = parsed.servers["web"]
    assert isinstance(server, HttpServer) and server.token == TOKEN
    assert TOKEN not in repr(server)


def test_tamper_changes_the_middle_character():
    assert tamper("xxAxx") == "xxBxx"
    assert tamper("xxxxx") == "xxAxx"


def run_driver(tmp_path: Path, text: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    script_file = tmp_path / "script.json"
    script_file.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, str(SRC / "driver.py"), str(script_file), str(tmp_path / "records.jsonl")],
                          capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})})


def test_the_driver_exits_2_on_a_bad_script_and_starts_nothing(tmp_path: Path):
    marker = tmp_path / "started"
    text = script([CONNECT, {"op": "close", "connection": "b"}],
                  servers={"srv": {"command": ["touch", str(marker)], "env": {}}})
    done = run_driver(tmp_path, text)
    assert done.returncode == 2
    assert done.stderr.strip() == 'script error: step 1 (close): connection "b" is used before it is connected'
    assert done.stdout == ""
    assert not (tmp_path / "records.jsonl").exists()
    assert not marker.exists()


def test_the_driver_exits_2_on_usage_and_an_unreadable_script(tmp_path: Path):
    usage = subprocess.run([sys.executable, str(SRC / "driver.py")], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "usage:" in usage.stderr
    missing = subprocess.run([sys.executable, str(SRC / "driver.py"), str(tmp_path / "none.json"), str(tmp_path / "r")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and missing.stderr.startswith("script error: cannot read")
    assert not (tmp_path / "r").exists()


def test_a_refused_http_entry_sends_no_request(tmp_path: Path):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        text = script([{"op": "connect", "connection": "a", "server": "web"}],
                      servers={"web": {"url": f"http://127.0.0.1:{port}/mcp", "bearer_token_env": "LAB_SHORT_TOKEN"}})
        done = run_driver(tmp_path, text, {"LAB_SHORT_TOKEN": "x" * 8})
        assert done.returncode == 2
        assert "holds a token shorter than 32 characters" in done.stderr and "x" * 8 not in done.stderr
        with pytest.raises(TimeoutError):
            listener.accept()


def test_a_connect_that_fails_is_recorded_and_later_steps_are_not_runnable(tmp_path: Path):
    text = script([CONNECT, {"op": "list_tools", "connection": "a"}, {"op": "close", "connection": "a"}],
                  servers={"srv": {"command": [str(tmp_path / "no-such-server")], "env": {}}})
    done = run_driver(tmp_path, text)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert [r["op"] for r in records] == ["connect", "list_tools", "close"]
    assert records[0]["outcome"] == "threw" and records[0]["transport"] == "stdio"
    assert records[0]["client"] == "python" and records[0]["sdk_version"] == "2.3.0"
    assert records[1]["outcome"] == "threw" and records[1]["threw"]["type"] == "StepNotRunnable"
    assert records[2]["outcome"] == "closed"
