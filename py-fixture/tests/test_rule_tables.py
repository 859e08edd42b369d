"""The shared rule tables of vectors/rules/ that the Python fixture implements: trusted environment, guarded
arguments, input responses. Every case is one test; the module names the functions the tables' `java` and
`typescript` fields name for the other languages."""

import pytest

from continuation_replay_fixture.guarded_arguments import (
    ABSENT,
    InvalidArguments,
    arguments_digest,
    guarded_arguments,
)
from continuation_replay_fixture.input_responses import InvalidInputResponses, accepted_body, normalised_responses
from continuation_replay_fixture.trusted_environment import ConfigurationError, read_config
from rule_table import load_rule_table

ENV_ROOT, ENV_CASES = load_rule_table("trusted-environment.json")
# The one case on which the languages differ is a null mode; the low-level Python server validates no input schema
# and hands the handler the null, which Python refuses as TypeScript's guardedArguments does.
_, ARGUMENT_CASES = load_rule_table("guarded-arguments.json", follows="typescript")
_, RESPONSE_CASES = load_rule_table("input-responses.json")

READ = {
    "WIRE_SERVER_DB": lambda c: c.database,
    "WIRE_BACKEND_ID": lambda c: c.backend_id,
    "WIRE_PRINCIPAL": lambda c: c.principal,
    "WIRE_CLOCK_EPOCH": lambda c: c.clock_epoch,
    "WIRE_AUTHORITY_TTL": lambda c: c.authority_ttl,
    "WIRE_REPLAY_RETENTION_TTL": lambda c: c.replay_retention_ttl,
    "WIRE_REQUEST_STATE_TTL": lambda c: c.request_state_ttl,
    "WIRE_STATE_KEY_HEX": lambda c: c.state_key.hex(),
    "WIRE_FINGERPRINT_KEY_HEX": lambda c: c.fingerprint_key.hex(),
    "WIRE_FAULT": lambda c: c.fault,
}


@pytest.mark.parametrize("case", ENV_CASES, ids=lambda c: c.name)
def test_trusted_environment_table(case):
    variable = case.row["variable"]
    env = dict(ENV_ROOT["base"])
    if case.row.get("unset") is True:
        env.pop(variable, None)
    else:
        env[variable] = case.row["value"]
    if "accepted" in case.expected:
        value = READ[variable](read_config(env))
        assert value == case.expected["accepted"] and type(value) is type(case.expected["accepted"])
    else:
        with pytest.raises(ConfigurationError) as caught:
            read_config(env)
        assert str(caught.value) == case.expected["error"]


@pytest.mark.parametrize("case", ARGUMENT_CASES, ids=lambda c: c.name)
def test_guarded_arguments_table(case):
    arguments = case.row["arguments"]

    def read():
        return guarded_arguments(
            arguments.get("operation_id"), arguments.get("title"), arguments.get("mode", ABSENT)
        ).as_dict()

    if "accepted" in case.expected:
        assert read() == case.expected["accepted"]
    else:
        with pytest.raises(InvalidArguments) as caught:
            read()
        assert str(caught.value) == case.expected["error"]


@pytest.mark.parametrize("case", RESPONSE_CASES, ids=lambda c: c.name)
def test_input_responses_table(case):
    responses = case.row["responses"]
    if "body" in case.expected:
        assert accepted_body(responses) == case.expected["body"]
    else:
        with pytest.raises(InvalidInputResponses) as caught:
            accepted_body(responses)
        assert str(caught.value) == case.expected["error"]


def test_the_tables_are_not_empty():
    assert len(ENV_CASES) > 100 and len(ARGUMENT_CASES) > 30 and len(RESPONSE_CASES) > 40


def test_the_arguments_digest_is_sha256_of_canonical_arguments_with_mode_defaulted():
    # The values of ts-fixture/test/guarded-arguments.test.ts, computed independently of either implementation.
    digest = "0bfd2287a3d8f15734dcf23118888298afe090daa814442cbd3045e7c2c2c355"
    assert arguments_digest({"operation_id": "case-01", "title": "guarded-01"}) == digest
    assert arguments_digest({"operation_id": "case-01", "title": "guarded-01", "mode": "atomic"}) == digest
    assert arguments_digest({"operation_id": "case-01", "title": "guarded-01", "mode": None}) == digest
    assert arguments_digest({"operation_id": "case-01", "title": "guarded-02"}) != digest
    assert arguments_digest({"operation_id": "case-01", "title": "guarded-01", "extra": [1]}) == digest
    for bad in [None, [], "x", {"title": "t"}, {"operation_id": "o"}]:
        with pytest.raises((TypeError, ValueError)):
            arguments_digest(bad)


def test_undefined_responses_are_invalid_and_the_normalised_shape_is_fixed():
    with pytest.raises(InvalidInputResponses, match="^invalid input responses$"):
        accepted_body(None)
    assert normalised_responses("b") == {"body": {"_meta": None, "action": "accept", "content": {"body": "b"}}}
    with pytest.raises(InvalidInputResponses, match="^unsupported input response fields$"):
        accepted_body({"body": {"action": "accept", "content": {"body": "b"}}}, dropped=["other"])


def test_with_a_ledger_url_the_fixture_needs_no_server_db():
    """The bridge opens a PostgreSQL ledger itself; the fixture only passes its variables on."""
    env = dict(ENV_ROOT["base"])
    del env["WIRE_SERVER_DB"]
    with pytest.raises(ConfigurationError, match="^WIRE_SERVER_DB is required$"):
        read_config(env)
    env["WIRE_LEDGER_URL"] = "jdbc:postgresql://127.0.0.1:5432/ledgers"
    assert read_config(env).database == ""
    env["WIRE_LEDGER_URL"] = ""
    with pytest.raises(ConfigurationError, match="^WIRE_SERVER_DB is required$"):
        read_config(env)
