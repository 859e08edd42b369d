"""The strict frame gate against the shared table vectors/rules/strict-frames.json. The Python gate is a port of the
TypeScript one (the SDKs fail in the same ways, see docs/python-fixture.md), so it gives the table's TypeScript
verdict wherever the two languages differ."""

import pytest

from continuation_replay_fixture.strict_frames import (
    INVALID_REQUEST,
    TOO_LARGE,
    Drop,
    Forward,
    LineSplitter,
    Reply,
    judge_frame,
    top_level_members,
    valid_id,
)
from rule_table import line_bytes, load_rule_table

_, CASES = load_rule_table("strict-frames.json", follows="typescript")



def gate(line: bytes):
    """What the gate does with one line followed by a newline: (lines to the SDK, lines to stdout)."""
    forwarded, replies = [], []

    def on_line(one: bytes) -> None:
        if one in (b"", b"\r"):
            return
        verdict = judge_frame(one)
        if isinstance(verdict, Forward):
            forwarded.append(verdict.line)
        elif isinstance(verdict, Reply):
            replies.append(verdict.line)

    LineSplitter(8 * 1024 * 1024, on_line, lambda: replies.append(TOO_LARGE)).push(line + b"\n")
    return forwarded, replies


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_strict_frames_table(case):
    line = line_bytes(case.row["line"])
    forwarded, replies = gate(line)
    verdict = case.expected["verdict"]
    if verdict == "forward":
        expected = case.expected["as"].encode("utf-8", "surrogatepass") if "as" in case.expected else line
        assert (forwarded, replies) == ([expected], [])
    elif verdict == "reply":
        assert (forwarded, replies) == ([], [case.expected["line"]])
    else:
        assert (forwarded, replies) == ([], [])


def test_the_table_has_the_cases_of_every_class():
    verdicts = {c.expected["verdict"] for c in CASES}
    assert verdicts == {"forward", "reply", "drop"} and len(CASES) > 90


def test_ids():
    assert valid_id('"x"') == '"x"' and valid_id("-0") == "0" and valid_id("9007199254740991") == "9007199254740991"
    for bad in ["9007199254740992", "1.0", "1e3", "null", "true", "{}", "[]", "01"]:
        assert valid_id(bad) is None, bad


def test_top_level_members_keep_source_spans_and_duplicates():
    text = ' {"a" : [1,{"b":"}"}] ,"a":"x\\"y", "c":true}'
    members = top_level_members(text)
    assert [(m.name, m.value) for m in members] == [("a", '[1,{"b":"}"}]'), ("a", '"x\\"y"'), ("c", "true")]
    assert text[members[0].start : members[0].end] == '"a" : [1,{"b":"}"}]'


def test_a_line_over_the_limit_is_answered_once_and_the_next_line_still_passes():
    lines, too_long = [], []
    splitter = LineSplitter(10, lines.append, lambda: too_long.append(1))
    splitter.push(b"0123456789ab")
    splitter.push(b"cdef\nshort\n")
    assert (lines, too_long) == ([b"short"], [1])
    splitter.push(b"tail")
    splitter.finish()
    assert lines == [b"short", b"tail"]


def test_a_batch_and_a_scalar_are_refused_without_id():
    assert judge_frame(b"[]") == Reply(INVALID_REQUEST)
    assert judge_frame(b'{"jsonrpc":"2.0","method":"x","id":1e400}') == Reply(INVALID_REQUEST)
    assert judge_frame(b'{"jsonrpc":"1.0","method":"notifications/x"}') == Drop()


def test_a_handshake_era_initialize_is_refused_with_32022_and_the_version_it_asked_for():
    line = (b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
            b'"capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"x","version":"0"}}}')
    assert judge_frame(line) == Reply(
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version",'
        '"data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}')
    odd = b'{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":7}}'
    assert judge_frame(odd) == Reply(
        '{"jsonrpc":"2.0","id":"i","error":{"code":-32022,"message":"Unsupported protocol version",'
        '"data":{"supported":["2026-07-28"],"requested":""}}}')
    # without a version it is not a handshake the gate can name: the shared table's rule (forward) holds
    assert judge_frame(b'{"jsonrpc":"2.0","id":2,"method":"initialize"}') == Forward(b'{"jsonrpc":"2.0","id":2,"method":"initialize"}')
    # a notification named initialize has no id to answer and goes on as any valid notification does
    assert judge_frame(b'{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-11-25"}}') == Forward(
        b'{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-11-25"}}')
