"""The shared rule tables (<repo>/vectors/rules/*.json) as the Python tests read them, with the format rules of Java's
RuleTable and ts-fixture/test/rule-table.ts: a case has a unique name and either `expect` (every language) or
`expect_by_language` ({java, typescript}: two different verdicts) with a `difference` saying why; `expand` maps a
placeholder to {repeat, times}, and every string of the case equal to it stands for the text repeated that many times.

The tables name two languages. Where Python implements a rule as one of them does, its test says which one it
follows for the cases on which they differ (`follows`), and why.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "vectors" / "rules"


@dataclass(frozen=True)
class RuleCase:
    name: str
    row: dict
    expected: dict
    difference: "str | None"


def _expand(value: Any, expansions: dict) -> Any:
    if isinstance(value, str):
        how = expansions.get(value)
        return value if how is None else how["repeat"] * how["times"]
    if isinstance(value, list):
        return [_expand(item, expansions) for item in value]
    if isinstance(value, dict):
        return {k: _expand(v, expansions) for k, v in value.items()}
    return value


def _verdict(file: str, name: str, row: dict, follows: "str | None") -> dict:
    common = row.get("expect")
    each = row.get("expect_by_language")
    difference = row.get("difference")
    if ("expect" in row) == ("expect_by_language" in row):
        raise AssertionError(f'{file}: case "{name}" needs exactly one of expect, expect_by_language')
    if "expect" in row:
        if difference is not None:
            raise AssertionError(f'{file}: case "{name}" has a difference but one verdict')
        return common
    if not isinstance(each, dict) or set(each) != {"java", "typescript"}:
        raise AssertionError(f'{file}: case "{name}" needs exactly a java and a typescript verdict')
    if each["java"] == each["typescript"]:
        raise AssertionError(f'{file}: case "{name}" gives both languages one verdict; use expect')
    if not isinstance(difference, str) or difference.strip() == "":
        raise AssertionError(f'{file}: case "{name}" must say in "difference" why the languages differ')
    if follows not in ("java", "typescript"):
        raise AssertionError(f'{file}: case "{name}" differs by language; the Python test must say which it follows')
    return each[follows]


def load_rule_table(file: str, follows: "str | None" = None) -> "tuple[dict, list[RuleCase]]":
    """The table's root object and every case as Python must see it; `follows` picks a by-language verdict."""
    path = RULES / file
    # Unicode escapes of lone surrogates in the tables must survive: json.loads keeps them as code points.
    root = json.loads(path.read_text(encoding="utf-8"))
    rows = root.get("cases")
    if not isinstance(rows, list) or not rows:
        raise AssertionError(f'{file}: "cases" must be a non-empty array')
    names: set = set()
    cases = []
    for raw in rows:
        name = raw.get("name")
        if not isinstance(name, str) or name == "" or name in names:
            raise AssertionError(f'{file}: every case needs a name of its own, not "{name}"')
        names.add(name)
        expansions = raw.get("expand")
        row = raw if expansions is None else {k: (v if k == "expand" else _expand(v, expansions)) for k, v in raw.items()}
        cases.append(RuleCase(name, row, _verdict(file, name, row, follows), raw.get("difference")))
    return root, cases


def line_bytes(spec) -> bytes:
    """The bytes of a strict-frames line: a string, or parts (text, {"hex"}, {"repeat", "times"}) joined."""
    if isinstance(spec, str):
        return spec.encode("utf-8", "surrogatepass")
    out = b""
    for part in spec:
        if isinstance(part, str):
            out += part.encode("utf-8", "surrogatepass")
        elif "hex" in part:
            out += bytes.fromhex(part["hex"])
        else:
            out += (part["repeat"] * part["times"]).encode("utf-8", "surrogatepass")
    return out
