"""Entry script: python py-fixture/src/fingerprint-cli.py [--keep-going] (see continuation_replay_fixture.fingerprint_cli)."""

import sys

# The lab's runs leave src/ as they found it: the launcher's stale check reads src/, and bytecode written beside the
# sources would make the next ./lab rebuild. Our few modules compile in milliseconds; the SDK's bytecode in the
# virtual environment is still read.
sys.dont_write_bytecode = True

from continuation_replay_fixture.fingerprint_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
