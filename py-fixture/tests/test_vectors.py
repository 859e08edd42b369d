"""The shared vectors (vectors/fingerprint_vectors.json, seed spec sections 2.5-2.6) through the Python fingerprint."""

import hashlib
import hmac

import pytest

from continuation_replay_fixture.canonical_json import canonical_json
from continuation_replay_fixture.exact_json import parse_exact_json
from continuation_replay_fixture.fingerprint import FingerprintKey, bind_opaque_field, request_fingerprint
from continuation_replay_fixture.logical_request import read_named_request
from rule_table import REPO

TEST_KEY_ASCII = "test-only-cross-language-key-32b"
TEST_KEY_HEX = "746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262"
KEY = FingerprintKey(TEST_KEY_ASCII.encode("ascii"))
VECTOR_00_DIGEST = "8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97"
VECTOR_00_BOUND_STATE = "d4d85246fe21047dd450f54774a06f90fab65dab0476eab70af3aac5da739cfc"
VECTOR_00_BOUND_RESPONSES = "41f2c8de4cba8e1429b26d4320fc7f3d93f513f04356c17c45b95ba60001de98"

FILE = parse_exact_json((REPO / "vectors" / "fingerprint_vectors.json").read_text(encoding="utf-8"))
EXPECTED = FILE["expected"]
VECTORS = [read_named_request(entry) for entry in FILE["vectors"]]
BY_NAME = {v.name: v.request for v in VECTORS}


def digest(name: str) -> str:
    return request_fingerprint(KEY, BY_NAME[name])


def test_the_test_key_hex_is_the_ascii_test_key():
    assert TEST_KEY_ASCII.encode("ascii").hex() == TEST_KEY_HEX
    assert len(bytes.fromhex(TEST_KEY_HEX)) == 32


def test_the_file_holds_the_17_seed_vectors_with_unique_names_in_order():
    assert len(VECTORS) == 17
    assert [v.name for v in VECTORS] == list(EXPECTED["digests"])
    assert len(BY_NAME) == 17


@pytest.mark.parametrize("name", list(BY_NAME))
def test_every_vector_matches_the_digest_the_file_expects(name):
    assert digest(name) == EXPECTED["digests"][name]


def test_vector_00_gives_the_worked_example_digest_under_both_spellings_of_the_key():
    assert digest("00_control_single_round") == VECTOR_00_DIGEST
    key = FingerprintKey(bytes.fromhex(TEST_KEY_HEX))
    assert request_fingerprint(key, BY_NAME["00_control_single_round"]) == VECTOR_00_DIGEST


def test_vector_00_binds_its_opaque_fields_and_payload_as_in_the_worked_example():
    request = BY_NAME["00_control_single_round"]
    assert bind_opaque_field(KEY, "continuation_state", request.continuation_state) == VECTOR_00_BOUND_STATE
    assert bind_opaque_field(KEY, "input_responses", request.input_responses) == VECTOR_00_BOUND_RESPONSES
    payload = canonical_json({
        "principal": request.principal, "tool_id": request.tool_id, "tool_version": request.tool_version,
        "arguments": request.arguments, "continuation_state": VECTOR_00_BOUND_STATE,
        "input_responses": VECTOR_00_BOUND_RESPONSES,
    })
    assert payload == (
        '{"arguments":{"title":"spec"},'
        f'"continuation_state":"{VECTOR_00_BOUND_STATE}",'
        f'"input_responses":"{VECTOR_00_BOUND_RESPONSES}",'
        '"principal":"alice","tool_id":"create_issue","tool_version":"1.0"}'
    )
    assert hashlib.sha256(payload.encode()).hexdigest() == VECTOR_00_DIGEST


@pytest.mark.parametrize("field", ["continuation_state", "input_responses"])
def test_a_null_opaque_field_binds_the_message_field_nul_null(field):
    expected = hmac.new(TEST_KEY_ASCII.encode(), f"{field}\0null".encode(), hashlib.sha256).hexdigest()
    assert bind_opaque_field(KEY, field, None) == expected


def test_a_string_continuation_state_binds_as_a_json_string_literal():
    expected = hmac.new(TEST_KEY_ASCII.encode(), b'continuation_state\0"awaiting-body"', hashlib.sha256).hexdigest()
    assert bind_opaque_field(KEY, "continuation_state", "awaiting-body") == expected == VECTOR_00_BOUND_STATE


def test_the_file_expects_its_digests_under_the_test_key():
    assert EXPECTED["key_ascii"] == TEST_KEY_ASCII
    assert EXPECTED["key_hex"] == TEST_KEY_HEX
    assert EXPECTED["digests"]["00_control_single_round"] == VECTOR_00_DIGEST


def test_the_relations_the_file_promises_hold():
    assert len(EXPECTED["relations"]) >= 7
    for relation in EXPECTED["relations"]:
        assert (digest(relation["left"]) == digest(relation["right"])) == relation["equal"], relation


def test_no_two_vectors_coincide_unless_a_relation_says_so():
    group = {name: name for name in BY_NAME}
    for relation in EXPECTED["relations"]:
        if relation["equal"]:
            old, new = group[relation["right"]], group[relation["left"]]
            group = {n: (new if g == old else g) for n, g in group.items()}
    for a in BY_NAME:
        for b in BY_NAME:
            assert (digest(a) == digest(b)) == (group[a] == group[b]), (a, b)


def test_a_different_key_changes_every_digest():
    other = FingerprintKey(bytes([0x42]) * 32)
    for name, request in BY_NAME.items():
        assert request_fingerprint(other, request) != request_fingerprint(KEY, request), name


def test_the_unicode_vector_reads_its_code_points_exactly_from_the_utf8_file():
    request = BY_NAME["unicode_scalar_order_and_utf8"]
    assert request.principal == "\u00e1l\u00ee\u00e7\u00e9"
    assert sorted(request.arguments) == sorted(["text", "\U00010000", "\ue000"])
    assert request.arguments["text"] == "Cafe\u0301 \U0001F600\u00a0"
    assert request.continuation_state == "\u72b6\u614b"
    assert canonical_json(request.arguments) == '{"text":"Cafe\u0301 \U0001F600\u00a0","\ue000":"bmp","\U00010000":"astral"}'


def test_maximum_safe_integer_keeps_9007199254740991_exactly():
    request = BY_NAME["maximum_safe_integer"]
    assert request.arguments["sequence"] == 9007199254740991
    assert canonical_json(request.arguments) == '{"sequence":9007199254740991}'


def test_special_and_integer_like_keys_keep_their_code_point_order():
    request = BY_NAME["special_and_integer_like_keys"]
    assert canonical_json(request.arguments) == '{"10":"ten","2":"two","__proto__":"data"}'


def test_a_key_is_never_printed():
    assert TEST_KEY_ASCII not in repr(KEY) and TEST_KEY_ASCII not in str(KEY)
