"""The bridge client's error paths against stand-in bridges (small Python programs), and its ordinary answers."""

import asyncio
import json
import sys

import pytest

from continuation_replay_fixture.bridge_client import (
    BridgeClient,
    BridgeMachineryFailure,
    BridgeOk,
    BridgeRefusal,
    bridge_error_text,
    read_answer,
    request_line,
)
from continuation_replay_fixture.bridge_command import (
    CASE_JVM_OPTIONS,
    STDIO_JVM_OPTIONS,
    BridgeCommandError,
    bridge_command,
    bridge_environment,
    default_bridge_command,
)
from rule_table import RULES

ECHO = (
    "import sys, json\n"
    "for line in sys.stdin:\n"
    "    req = json.loads(line)\n"
    "    if req.get('op') == 'refuse':\n"
    "        print(json.dumps({'ok': False, 'error': 'operation_conflict', 'detail': 'd'}), flush=True)\n"
    "    else:\n"
    "        print(json.dumps({'ok': True, 'result': {'echo': req}}), flush=True)\n"
)


def client(program: str, timeout: float = 8.0) -> BridgeClient:
    return BridgeClient([sys.executable, "-c", program], {}, timeout=timeout, stderr=open("/dev/null", "wb"))


def run(coroutine):
    return asyncio.run(coroutine)


def test_answers_come_back_in_order_from_one_child():
    async def scenario():
        bridge = client(ECHO)
        answers = await asyncio.gather(*(bridge.call({"op": "status", "n": n}) for n in range(20)))
        refused = await bridge.call({"op": "refuse"})
        spawned = bridge.spawned
        await bridge.close()
        return answers, refused, spawned

    answers, refused, spawned = run(scenario())
    assert [a.result["echo"]["n"] for a in answers] == list(range(20))
    assert refused == BridgeRefusal("operation_conflict", "d")
    assert spawned == 1


def test_a_child_that_dies_names_its_status_and_last_stderr_line_and_is_replaced():
    program = "import sys\nsys.stdin.readline()\nprint('first', file=sys.stderr)\nprint('dying now', file=sys.stderr)\nsys.exit(71)\n"

    async def scenario():
        bridge = client(program)
        with pytest.raises(BridgeMachineryFailure) as caught:
            await bridge.call({"op": "status"})
        with pytest.raises(BridgeMachineryFailure):
            await bridge.call({"op": "status"})
        spawned = bridge.spawned
        await bridge.close()
        return str(caught.value), spawned

    message, spawned = run(scenario())
    assert message == "bridge machinery failure: 71; dying now"
    assert spawned == 2


def test_a_killed_child_is_named_by_its_signal():
    program = "import os, signal, sys\nsys.stdin.readline()\nos.kill(os.getpid(), signal.SIGKILL)\n"

    async def scenario():
        bridge = client(program)
        with pytest.raises(BridgeMachineryFailure) as caught:
            await bridge.call({"op": "status"})
        await bridge.close()
        return str(caught.value)

    assert run(scenario()).startswith("bridge machinery failure: SIGKILL; ")


def test_an_invalid_reply_fails_the_call_and_the_next_call_gets_a_new_child():
    program = "import sys\nfor line in sys.stdin:\n    print('not json', flush=True)\n"

    async def scenario():
        bridge = client(program)
        with pytest.raises(BridgeMachineryFailure, match="^bridge machinery failure: invalid reply; "):
            await bridge.call({"op": "status"})
        with pytest.raises(BridgeMachineryFailure, match="invalid reply"):
            await bridge.call({"op": "status"})
        spawned = bridge.spawned
        await bridge.close()
        return spawned

    assert run(scenario()) == 2


def test_no_reply_in_time_kills_the_child():
    program = "import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n"

    async def scenario():
        bridge = client(program, timeout=0.5)
        await bridge.start()
        exit_future = bridge.child_exit
        with pytest.raises(BridgeMachineryFailure, match="^bridge machinery failure: no reply within 500 ms; "):
            await bridge.call({"op": "status"})
        how = await asyncio.wait_for(exit_future, 5)
        await bridge.close()
        return how

    assert run(scenario()) == "SIGKILL"


def test_output_nobody_asked_for_ends_the_child():
    program = "import sys, time\nprint('{\"ok\":true,\"result\":{}}', flush=True)\ntime.sleep(60)\n"

    async def scenario():
        bridge = client(program)
        await bridge.start()
        how = await asyncio.wait_for(bridge.child_exit, 5)
        await bridge.close()
        return how

    assert run(scenario()) == "SIGKILL"


def test_a_reply_longer_than_1_mib_is_a_machinery_failure():
    program = "import sys\nsys.stdin.readline()\nsys.stdout.write('x' * (2 << 20) + '\\n')\nsys.stdout.flush()\n"

    async def scenario():
        bridge = client(program)
        with pytest.raises(BridgeMachineryFailure, match="reply too long"):
            await bridge.call({"op": "status"})
        await bridge.close()

    run(scenario())


def test_a_command_that_cannot_start_and_a_closed_client_fail_as_machinery():
    async def scenario():
        missing = BridgeClient(["/nonexistent/bridge"], {})
        with pytest.raises(BridgeMachineryFailure, match="cannot start the bridge"):
            await missing.call({"op": "status"})
        closed = client(ECHO)
        await closed.close()
        with pytest.raises(BridgeMachineryFailure, match="bridge closed"):
            await closed.call({"op": "status"})

    run(scenario())


def test_reply_lines_and_request_lines():
    assert read_answer(b'{"ok":true,"result":{"a":1}}') == BridgeOk({"a": 1})
    assert read_answer(b'{"ok":false,"error":"e","detail":"d"}') == BridgeRefusal("e", "d")
    for bad in [b"", b"[]", b'{"ok":true}', b'{"ok":true,"result":[]}', b'{"ok":false,"error":"e"}', b'{"ok":1}']:
        assert read_answer(bad) is None, bad
    assert request_line({"t": "\u00e9"}) == '{"t":"\u00e9"}\n'.encode("utf-8")
    assert request_line({"t": "\ud800"}) == b'{"t":"\\ud800"}\n'


def test_error_texts():
    assert bridge_error_text("operation_conflict", "x") == "operation_conflict"
    assert bridge_error_text("invalid_application_request", "the guard's words") == "the guard's words"
    assert bridge_error_text("storage_failure", "x") == "bridge_error: storage_failure"


def test_the_bridge_command_and_environment():
    root = RULES.parents[1]
    rules = json.loads((RULES / "stdio-jvm-options.json").read_text(encoding="utf-8"))
    assert list(STDIO_JVM_OPTIONS) == rules["options"]
    case = json.loads((RULES / "case-jvm-options.json").read_text(encoding="utf-8"))
    assert list(CASE_JVM_OPTIONS) == case["options"]
    assert default_bridge_command(root, {}) == [
        "java", *STDIO_JVM_OPTIONS, *CASE_JVM_OPTIONS, "-jar", str(root / "bridge" / "target" / "bridge.jar")]
    assert default_bridge_command(root, {"JAVA_HOME": "/j"})[:1] == ["/j/bin/java"]
    assert default_bridge_command(root, {})[-1] == str(root / "bridge" / "target" / "bridge.jar")
    assert bridge_command(root, {"LAB_BRIDGE_COMMAND": '["a","b"]'}) == ["a", "b"]
    for bad in ["x", "[]", '["a",1]', '[""]', '{"a":1}']:
        with pytest.raises(BridgeCommandError, match="^LAB_BRIDGE_COMMAND must be a JSON array of strings$"):
            bridge_command(root, {"LAB_BRIDGE_COMMAND": bad})
    env = {"PATH": "/p", "WIRE_PRINCIPAL": "alice", "WIRE_STATE_KEY_HEX": "ab", "WIRE_REQUEST_STATE_TTL": "1", "X": "y"}
    assert bridge_environment(env) == {"PATH": "/p", "WIRE_PRINCIPAL": "alice"}
    ledger = {"WIRE_LEDGER_URL": "jdbc:postgresql://127.0.0.1/l", "WIRE_LEDGER_USER": "lab",
              "WIRE_LEDGER_PASSWORD_FILE": "/tmp/p", "WIRE_LEDGER_PASSWORD": "x" * 32}
    assert bridge_environment({**ledger, "WIRE_STATE_KEY_HEX": "ab"}) == ledger
