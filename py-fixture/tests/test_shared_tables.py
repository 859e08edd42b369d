"""Which shared files of <repo>/vectors/ the Python tests read, and which do not apply to the Python fixture (with
the reason). A file added to vectors/ or vectors/rules/ fails this test until a Python test reads it or it is listed
as not applicable; a reader listed here must name the file in its source, so the list cannot drift from the tests.
The readers resolve the files from the repository (rule_table.REPO), and a missing file fails them, never skips."""

import sys
from pathlib import Path

import pytest

from rule_table import REPO

TESTS = Path(__file__).resolve().parent

READERS = {
    "fingerprint_vectors.json": "test_vectors.py",
    "rules/guarded-arguments.json": "test_rule_tables.py",
    "rules/input-responses.json": "test_rule_tables.py",
    "rules/stdio-jvm-options.json": "test_bridge_client.py",
    "rules/case-jvm-options.json": "test_bridge_client.py",
    "rules/strict-frames.json": "test_strict_frames.py",
    "rules/tools.json": "test_tool_table.py",
    "rules/trusted-environment.json": "test_rule_tables.py",
}

NOT_APPLICABLE = {
    # Replay/conflict/reject verdicts of the shared ledger (Java's shared-store); the fixture reaches the ledger
    # through the bridge and implements none of that policy (the TypeScript tests do not read it either).
    "portable-continuation-v1.json": "the ledger's policy vectors, judged by the Java ledger behind the bridge",
    # How a status read-back settles a lost reply: the Java client rules and the Java checker's reading, not a fixture's.
    "rules/status-observation.json": "the recovery rules of a status read-back, held by the Java client code and the checker",
    # The client drivers' script check: read by each driver's own suite (py-client/tests/test_script_rules.py here).
    "rules/client-script.json": "the step-script refusals of the four client drivers, read by each driver's own tests",
}


def shared_files() -> "set[str]":
    vectors = REPO / "vectors"
    return {p.name for p in vectors.glob("*.json")} | {f"rules/{p.name}" for p in (vectors / "rules").glob("*.json")}


def test_every_shared_file_is_read_or_said_not_to_apply():
    listed = set(READERS) | set(NOT_APPLICABLE)
    assert shared_files() == listed, (
        f"not read by any Python test: {sorted(shared_files() - listed)}; listed but absent: {sorted(listed - shared_files())}"
    )


@pytest.mark.parametrize("table", sorted(READERS))
def test_each_reader_names_its_file_and_the_file_is_there(table):
    assert (REPO / "vectors" / table).is_file(), f"vectors/{table} is missing"
    source = (TESTS / READERS[table]).read_text(encoding="utf-8")
    assert f'"{Path(table).name}"' in source, f"{READERS[table]} does not read {table}"


def test_the_catalogue_fails_on_a_table_nobody_reads(tmp_path, monkeypatch):
    rules = tmp_path / "vectors" / "rules"
    rules.mkdir(parents=True)
    for name in shared_files():
        (tmp_path / "vectors" / name).write_text("{}", encoding="utf-8")
    (rules / "new-rule.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    with pytest.raises(AssertionError, match="new-rule.json"):
        test_every_shared_file_is_read_or_said_not_to_apply()
