"""Entry script: python py-fixture/src/fingerprint-cli.py [--keep-going] (see continuation_replay_fixture.fingerprint_cli)."""

import sys

from continuation_replay_fixture.fingerprint_cli import main

if __name__ == "__main__":
    sys.exit(main())
