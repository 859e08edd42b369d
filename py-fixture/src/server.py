"""Entry script of the guarded Python fixture: .venv/bin/python py-fixture/src/server.py (stdio)."""

from continuation_replay_fixture.server import main

if __name__ == "__main__":
    main()
