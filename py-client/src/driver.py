"""`python driver.py SCRIPT RECORDS`: the Python SDK client driver (docs/client-drivers.md).

Exit 0: every step attempted; 2: a script the driver cannot read (one stderr line, nothing started, no record
file); 1: a defect of the driver itself. Stdout is unused: logs go to stderr.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from importlib.metadata import version
from pathlib import Path

STARTED = time.monotonic()
# The lab's runs leave src/ as they found it (the launcher's stale check reads src/): no bytecode beside the sources.
sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

from py_client.script import ScriptError, parse_script  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python driver.py SCRIPT RECORDS", file=sys.stderr)
        return 2
    script_path, records_path = argv
    try:
        text = Path(script_path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"script error: cannot read {script_path} ({e})", file=sys.stderr)
        return 2
    try:
        script = parse_script(text, os.environ)
    except ScriptError as e:
        print(str(e), file=sys.stderr)
        return 2
    # Imported only now: a refused script never pays for loading the SDK.
    import anyio

    from py_client.run import Run

    # Fails early, before any server starts, when the records file cannot be written at all.
    with open(records_path, "a", encoding="utf-8"):
        pass
    anyio.run(Run(script, records_path, version("mcp"), STARTED).play)
    return 0


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
    except BaseException:  # noqa: BLE001 - any escape is a defect of the driver
        traceback.print_exc(file=sys.stderr)
        status = 1
    sys.stdout.flush()
    sys.exit(status)
