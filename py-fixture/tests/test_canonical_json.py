"""Canonical JSON and the exact parser: the rules and messages of docs/fingerprint.md, as Java and TypeScript test them."""

import pytest

from continuation_replay_fixture.canonical_json import CanonicalJsonError, canonical_json
from continuation_replay_fixture.exact_json import (
    InexactNumber,
    JsonSyntaxError,
    JsonValueError,
    classify_number_literal,
    parse_exact_json,
)
from continuation_replay_fixture.fingerprint import FingerprintKey, LogicalRequest, request_fingerprint

KEY = FingerprintKey(b"test-only-cross-language-key-32b")
NOT_INTEGER = "number must be an integer in the interoperable safe range"
OUTSIDE = "integer is outside the interoperable safe range"
SURROGATE = "unpaired UTF-16 surrogate is not valid Unicode"


def canonical_of(text: str) -> str:
    return canonical_json(parse_exact_json(text))


def error_of(text: str) -> str:
    with pytest.raises((CanonicalJsonError, JsonValueError)) as caught:
        canonical_of(text)
    return str(caught.value)


def request(arguments) -> LogicalRequest:
    return LogicalRequest("alice", "create_issue", "1.0", arguments, "s", None)


def nested_arrays(levels: int):
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_the_mixed_example_normalises_numbers_and_sorts_keys_at_every_level():
    assert canonical_of('{ "b" : [ 1.0 , {"z":1e2,"a":-0} ], "a" : null }') == '{"a":null,"b":[1,{"a":0,"z":100}]}'


def test_scalars():
    assert [canonical_json(v) for v in (None, True, False, 0, -7, "x")] == ["null", "true", "false", "0", "-7", '"x"']


def test_key_order_is_by_code_point_not_utf16_code_unit():
    assert canonical_of('{"\\ud800\\udc00":1,"\\ue000":2}') == '{"\ue000":2,"\U00010000":1}'
    keys = ["a", "\u00e9", "B", "__proto__", "\U00010000", "10", "2", "\ue000"]
    text = canonical_json({k: 0 for k in keys})
    assert text == '{"10":0,"2":0,"B":0,"__proto__":0,"a":0,"\u00e9":0,"\ue000":0,"\U00010000":0}'


def test_escapes_are_minimal_and_lowercase():
    assert canonical_json("\b\f\n\r\t\"\\") == '"\\b\\f\\n\\r\\t\\"\\\\"'
    for code in [0x00, 0x01, 0x0B, 0x1F]:
        assert canonical_json(chr(code)) == '"\\u%04x"' % code
    assert canonical_json("/\x7f\u2028\u2029\u00e9\U0001F600") == '"/\x7f\u2028\u2029\u00e9\U0001F600"'
    assert canonical_of('"\\u0041\\/\\u00e9"') == '"A/\u00e9"'
    assert canonical_json({"\n": 1}) == '{"\\n":1}'


def test_integral_spellings_become_plain_integers_and_the_same_fingerprint():
    for literal in ["1.0", "1e0", "10e-1", "0.1e1", "1.00"]:
        assert canonical_of(literal) == "1", literal
    assert canonical_of("-0") == "0" and canonical_of("-0.0") == "0" and canonical_of("1E2") == "100"
    assert request_fingerprint(KEY, request({"n": 1.0})) == request_fingerprint(KEY, request({"n": 1}))
    assert request_fingerprint(KEY, request({"n": 2})) != request_fingerprint(KEY, request({"n": 1}))


def test_the_safe_range_edges():
    assert canonical_of("[9007199254740991,-9007199254740991]") == "[9007199254740991,-9007199254740991]"
    for literal in ["9007199254740992", "-9007199254740992", "1e400", "9007199254740993", "1e16"]:
        assert error_of(f'{{"n":{literal}}}') == f"$.n: {OUTSIDE}", literal
    for literal in ["1.5", "1e-1", "1.0000000000000000001", "-0.5"]:
        assert error_of(f'{{"n":{literal}}}') == f"$.n: {NOT_INTEGER}", literal


def test_python_numbers_follow_the_same_rules():
    assert canonical_json(3.0) == "3"
    for bad, message in [(1.5, NOT_INTEGER), (float("nan"), NOT_INTEGER), (float("inf"), NOT_INTEGER),
                         (2.0**53, OUTSIDE), (2**53, OUTSIDE), (-(2**53), OUTSIDE)]:
        with pytest.raises(CanonicalJsonError, match=f"^\\$: {message}$"):
            canonical_json(bad)


def test_classify_number_literal():
    assert classify_number_literal("-0") == 0
    assert classify_number_literal("12e1") == 120
    assert classify_number_literal("1.5") == InexactNumber("1.5", "fraction")
    assert classify_number_literal("1e17") == InexactNumber("1e17", "range")


def test_rejected_numbers_carry_their_path_in_a_fingerprint():
    with pytest.raises(CanonicalJsonError, match=r"^\$\.arguments\.items\[2\]\.n: number must be"):
        request_fingerprint(KEY, request(parse_exact_json('{"items":[0,1,{"n":1.5}]}')))
    with pytest.raises(CanonicalJsonError, match=r"^\$\.continuation_state\.x: integer is outside"):
        request_fingerprint(KEY, LogicalRequest("a", "t", "1", {}, parse_exact_json('{"x":1e400}'), None))


def test_unpaired_surrogates_are_rejected_with_their_path():
    assert error_of('{"t":"a\\ud800"}') == f"$.t: {SURROGATE}"
    assert error_of('["\\udc00x"]') == f"$[0]: {SURROGATE}"
    assert error_of('"\\ud800\\ud800"') == f"$: {SURROGATE}"
    assert canonical_of('"\\ud83d\\ude00"') == '"\U0001F600"'
    # A key in code (not parsed) reaches the canonicaliser, which names the key itself, escaped.
    with pytest.raises(CanonicalJsonError, match=r"^\$\.a\\udc01: unpaired"):
        canonical_json({"a\udc01": 1})
    with pytest.raises(CanonicalJsonError, match=r"^\$\.x\.k\\u0001\\ud800: unpaired"):
        canonical_json({"x": {"k\u0001\ud800": 1}})


def test_a_parsed_key_with_an_unpaired_surrogate_names_the_object_holding_it():
    assert error_of('{"a":{"b\\ud800":1}}') == "$.a: object key with an unpaired UTF-16 surrogate is not valid Unicode"


def test_values_that_are_not_json_are_unsupported():
    with pytest.raises(CanonicalJsonError, match=r"^\$\.x: unsupported JSON value set$"):
        canonical_json({"x": set()})
    with pytest.raises(CanonicalJsonError, match=r"^\$: object keys must be strings$"):
        canonical_json({1: 2})


def test_nesting_of_1000_levels_passes_and_1001_fails():
    assert canonical_json(nested_arrays(1000)).startswith("[[")
    with pytest.raises(CanonicalJsonError, match=r"^\$(\[0\]){1000}: nesting deeper than 1000 levels$"):
        canonical_json(nested_arrays(1001))


def test_in_a_fingerprint_arguments_sit_one_level_down_and_opaque_fields_on_their_own():
    assert len(request_fingerprint(KEY, request({"a": nested_arrays(998)}))) == 64
    with pytest.raises(CanonicalJsonError) as caught:
        request_fingerprint(KEY, request({"a": nested_arrays(999)}))
    assert str(caught.value) == "$.arguments.a" + "[0]" * 998 + ": nesting deeper than 1000 levels"
    state_ok = LogicalRequest("a", "t", "1", {}, nested_arrays(1000), None)
    assert len(request_fingerprint(KEY, state_ok)) == 64


def test_the_parser_limits_and_syntax():
    deep = "[" * 1100 + "]" * 1100
    with pytest.raises(CanonicalJsonError, match="nesting deeper than 1000 levels$"):
        canonical_of(deep)
    with pytest.raises(JsonSyntaxError, match="nesting deeper than 1100 levels"):
        parse_exact_json("[" * 1101 + "]" * 1101)
    with pytest.raises(JsonSyntaxError, match="number literal longer than 1000"):
        parse_exact_json("1" * 1001)
    for bad in ["NaN", "Infinity", "-Infinity", "01", "1.", ".5", "[1,]", '{"a":1,}', "'a'", '"\\x"', '"a\tb"',
                "[1] x", "", "tru", '{"a" 1}', "+1", '"\\u12g4"']:
        with pytest.raises(JsonSyntaxError):
            parse_exact_json(bad)


def test_a_later_duplicate_key_replaces_an_earlier_one():
    assert parse_exact_json('{"a":1,"b":2,"a":3}') == {"a": 3, "b": 2}
    assert canonical_of('{"a":1,"a":{"x":2}}') == '{"a":{"x":2}}'


def _random_value(rng, depth: int):
    """A JSON value of the kinds the fast path takes and of the kinds it hands to the walk."""
    kinds = ["str", "int", "bool", "null", "float", "big"] + (["dict", "list"] if depth < 4 else [])
    kind = rng.choice(kinds)
    if kind == "str":
        alphabet = ["a", "\"", "\\", "\n", "\x01", "\u2028", "é", "漢", "\U0001F600", "\ud800"]
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(4)))
    if kind == "int":
        return rng.choice([0, -1, 7, 2**53 - 1, -(2**53 - 1)])
    if kind == "big":
        return rng.choice([2**53, -(2**53)])
    if kind == "float":
        return rng.choice([1.0, -0.0, 2.5, 1e20])
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "null":
        return None
    if kind == "list":
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {_random_value_key(rng): _random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _random_value_key(rng) -> str:
    return "".join(rng.choice(["b", "a", "é", "\U0001F600", "\uffff", "\ud800"]) for _ in range(rng.randrange(3)))


def test_the_encoder_path_writes_what_the_walk_writes_or_refuses_alike():
    """canonical_json takes the C encoder for plain values and walks the rest; on any value both give the same text,
    or the same error with the same path."""
    import random

    from continuation_replay_fixture import canonical_json as module

    rng = random.Random(20261206)
    fast = 0
    for _ in range(3000):
        value = _random_value(rng, 0)
        try:
            walked = module._walked(value, "$", 0)
        except CanonicalJsonError as refused:
            with pytest.raises(CanonicalJsonError) as caught:
                canonical_json(value)
            assert str(caught.value) == str(refused)
            with pytest.raises(CanonicalJsonError) as caught:
                module.canonical_utf8_at(value, "$", 0)
            assert str(caught.value) == str(refused)
            continue
        fast += module._plain(value, 0)
        assert canonical_json(value) == walked
        assert module.canonical_utf8_at(value, "$", 0) == walked.encode("utf-8")
    assert fast > 500, "the generated values exercise the encoder path"
