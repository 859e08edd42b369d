"""Creates py-fixture/.venv from requirements.lock (pip install --require-hashes --no-deps).

Run by the module's Maven build with the python3 found on PATH. The venv is kept while the lock and the interpreter
are unchanged (a stamp file inside it records both); otherwise it is emptied and installed again. The stamp is written
last, so an interrupted install is redone on the next build.
"""

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
LOCK = HERE / "requirements.lock"
STAMP = VENV / "lab-lock.sha256"


def wanted_stamp() -> str:
    lock = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    return f"{lock} {sys.version.split()[0]} {os.path.realpath(sys.executable)}\n"


def venv_python() -> Path:
    return VENV / "bin" / "python"


def main() -> int:
    if sys.version_info < (3, 11):
        print(f"py-fixture needs Python 3.11 or newer, not {sys.version.split()[0]}", file=sys.stderr)
        return 2
    stamp = wanted_stamp()
    if STAMP.is_file() and venv_python().exists() and STAMP.read_text(encoding="utf-8") == stamp:
        print(f"py-fixture: {VENV.name} is up to date with {LOCK.name}")
        return 0
    print(f"py-fixture: creating {VENV.name} from {LOCK.name}")
    venv.EnvBuilder(clear=True, with_pip=True).create(VENV)
    install = [
        str(venv_python()), "-m", "pip", "install",
        "--require-hashes", "--no-deps", "--disable-pip-version-check", "--no-input", "--quiet",
        "-r", str(LOCK),
    ]
    done = subprocess.run(install, check=False)
    if done.returncode != 0:
        return done.returncode
    check = subprocess.run([str(venv_python()), "-m", "pip", "check", "--disable-pip-version-check"], check=False)
    if check.returncode != 0:
        return check.returncode
    STAMP.write_text(stamp, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
