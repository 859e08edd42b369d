"""The tools the fixture lists, as <repository>/vectors/rules/tools.json declares them for all four servers.

The fixture runs from src/ (no installed package, so no package data to ride on), and finds the table above the
package as it finds the bridge jar; the runner image stages vectors/rules beside py-fixture/src for the same reason.
A tool has name, description, inputSchema and optionally outputSchema; any other member is refused, as the other
servers' readers refuse it, so nothing the table declares is silently left out of this server's list."""

import json
from pathlib import Path
from typing import Any, Sequence

from .bridge_command import REPO_ROOT

FORMAT = "tool-table/1"
TABLE = REPO_ROOT / "vectors" / "rules" / "tools.json"
MEMBERS = ("name", "description", "inputSchema", "outputSchema")


class ToolTableError(ValueError):
    pass


def shipped_table(path: Path = TABLE) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ToolTableError(f"cannot read the shared tool table {path}: {error}") from None


def tool_declarations(table: Any, server: str, served: Sequence[str]) -> "list[dict]":
    """`server`'s tools in the table's order. Their names must be exactly `served`, the tools this fixture has
    handlers for: a table that renames, adds or drops one is refused."""
    if not isinstance(table, dict) or table.get("format") != FORMAT:
        raise ToolTableError(f'the tool table\'s format must be "{FORMAT}"')
    tools = table.get(server)
    if not isinstance(tools, list):
        raise ToolTableError(f'the tool table has no "{server}" array')
    declared = []
    for tool in tools:
        if not isinstance(tool, dict):
            raise ToolTableError(f"the tool table's {server} tools must be objects")
        name = tool.get("name")
        for member in tool:
            if member not in MEMBERS:
                raise ToolTableError(f"the tool table's {server} tool {json.dumps(name)} has a member this server does not pass on: {member}")
        description = tool.get("description")
        if not isinstance(name, str) or name == "" or not isinstance(description, str) or description == "":
            raise ToolTableError(f"the tool table's {server} tool {json.dumps(name)} needs a non-empty name and description")
        if not isinstance(tool.get("inputSchema"), dict) or not isinstance(tool.get("outputSchema", {}), dict):
            raise ToolTableError(f"the tool table's {name} needs an object inputSchema (and outputSchema, if any)")
        declared.append(tool)
    names = [tool["name"] for tool in declared]
    if len(set(names)) != len(names) or sorted(names) != sorted(served):
        raise ToolTableError(f"the tool table's {server} tools are {names}, but this server serves {list(served)}")
    return declared
