"""Entry script of the guarded Python fixture: .venv/bin/python py-fixture/src/server.py (stdio)."""

import sys

# The lab's runs leave src/ as they found it: the launcher's stale check reads src/, and bytecode written beside the
# sources would make the next ./lab rebuild. Our few modules compile in milliseconds; the SDK's bytecode in the
# virtual environment is still read.
sys.dont_write_bytecode = True

from continuation_replay_fixture.server import main  # noqa: E402

if __name__ == "__main__":
    main()
