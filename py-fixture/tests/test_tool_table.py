"""The fixture's tools come from vectors/rules/tools.json, whole, and from nothing else: the fixture reads the
repository's table, its tools/list gives the table's tools member for member (test_fixture_process.py checks the
real process too), and a changed table changes what is listed."""

import copy
import json

import pytest

from continuation_replay_fixture import tool_table
from continuation_replay_fixture.guarded_tools import tool_list
from continuation_replay_fixture.unguarded_tools import unguarded_tool_list
from rule_table import RULES

TABLE = json.loads((RULES / "tools.json").read_text(encoding="utf-8"))


def listed(table=None) -> list:
    """tools/list's tools as the SDK writes them on the wire."""
    return tool_list(table).model_dump(by_alias=True, exclude_none=True, mode="json")["tools"]


def changed(change) -> dict:
    root = copy.deepcopy(TABLE)
    change(root)
    return root


def test_the_fixture_reads_the_repositorys_table():
    assert tool_table.TABLE.resolve() == (RULES / "tools.json").resolve()


def test_tools_list_gives_exactly_the_tables_guarded_tools():
    assert listed() == TABLE["guarded"]


def test_a_changed_table_changes_what_is_listed():
    def change(root):
        create, status = root["guarded"]
        create["description"] = "changed"
        create["inputSchema"]["properties"]["extra"] = {"type": "string"}
        del status["outputSchema"]
        root["guarded"] = [status, create]

    root = changed(change)
    assert listed(root) == root["guarded"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda root: root["guarded"][1].update(name="get_status"), "this server serves"),
        (lambda root: root["guarded"].append(copy.deepcopy(root["guarded"][0])), "this server serves"),
        (lambda root: root["guarded"].pop(), "this server serves"),
        (lambda root: root["guarded"][0].update(annotations={"readOnlyHint": False}), "does not pass on: annotations"),
        (lambda root: root["guarded"][0].pop("description"), "non-empty name and description"),
        (lambda root: root["guarded"][0].update(inputSchema="{}"), "object inputSchema"),
        (lambda root: root.pop("guarded"), 'no "guarded" array'),
        (lambda root: root.update(format="tool-table/2"), 'format must be "tool-table/1"'),
    ],
)
def test_a_table_that_is_not_the_served_tools_is_refused(change, message):
    with pytest.raises(tool_table.ToolTableError, match=message):
        tool_list(changed(change))


def test_the_unguarded_control_lists_the_tables_create_issue_member_for_member():
    listed = unguarded_tool_list(TABLE).model_dump(by_alias=True, exclude_none=True)["tools"]
    assert listed == TABLE["unguarded"]
    with pytest.raises(tool_table.ToolTableError):
        unguarded_tool_list(changed(lambda root: root["unguarded"][0].update(name="create_issue_twice")))


def test_a_missing_or_broken_table_is_a_refusal_not_a_traceback(tmp_path):
    broken = tmp_path / "tools.json"
    broken.write_text("{", encoding="utf-8")
    for path in (tmp_path / "missing.json", broken):
        with pytest.raises(tool_table.ToolTableError, match="cannot read the shared tool table"):
            tool_table.shipped_table(path)
