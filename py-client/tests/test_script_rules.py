"""Every case of the shared client-script table (<repo>/vectors/rules/client-script.json) through parse_script: the
four drivers are held to one table, so a refusal worded or ordered differently in one of them fails its own suite."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from py_client.script import Parallel, ScriptError, parse_script  # noqa: E402

TABLE = HERE.parents[1] / "vectors" / "rules" / "client-script.json"
# A missing table fails here, at collection, never as a skip.
ROOT = json.loads(TABLE.read_text(encoding="utf-8"))
CASES = ROOT["cases"]
INPUTS = {"text", "set", "remove", "steps"}
VERDICTS = {"error", "error_starts", "accepted"}


def script_text(case: dict) -> str:
    if "text" in case:
        return case["text"]
    document = copy.deepcopy(ROOT["base"])
    document.update(copy.deepcopy(case.get("set", {})))
    for name in case.get("remove", []):
        document.pop(name, None)
    if "steps" in case:
        document["steps"] = copy.deepcopy(case["steps"])
    return json.dumps(document)


def recorded_steps(script) -> list:
    """One "<step> <op>" per step that gets a record: a parallel step's inner steps, not the parallel step."""
    out = []
    for step in script.steps:
        for one in step.steps if isinstance(step, Parallel) else (step,):
            out.append(f"{one.id} {one.op}")
    return out


def test_the_table_is_well_formed():
    ids = [case.get("id") for case in CASES]
    assert ROOT["format"] == "client-script-rules/1"
    assert len(ids) == len(set(ids)) and all(isinstance(i, str) and i for i in ids), "every case needs an id of its own"
    for case in CASES:
        assert set(case) <= INPUTS | {"id", "expect", "note"}, case["id"]
        assert "text" not in case or not (set(case) & (INPUTS - {"text"})), case["id"]
        assert len(case["expect"]) == 1 and set(case["expect"]) <= VERDICTS, case["id"]
    assert sum("accepted" in c["expect"] for c in CASES) > 5 and sum("error" in c["expect"] for c in CASES) > 100


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_client_script_table(case):
    text = script_text(case)
    expect = case["expect"]
    if "accepted" in expect:
        assert recorded_steps(parse_script(text, ROOT["environment"])) == expect["accepted"]
        return
    with pytest.raises(ScriptError) as caught:
        parse_script(text, ROOT["environment"])
    line = str(caught.value)
    if "error" in expect:
        assert line == expect["error"]
    else:
        assert line.startswith(expect["error_starts"]) and "\n" not in line, line
