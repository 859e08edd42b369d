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
