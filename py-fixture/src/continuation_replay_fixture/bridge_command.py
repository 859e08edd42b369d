"""How the fixture starts its bridge child: which argv, with which environment. The same rules as
ts-fixture/src/bridge-command.ts: the child gets an allowlist of variables, what it needs to find Java and the ledger,
never the requestState key or the TTLs (it does not mint)."""

import json
import os
from pathlib import Path
from typing import Mapping

BRIDGE_COMMAND = "LAB_BRIDGE_COMMAND"
INHERITED = ("PATH", "LANG", "LC_ALL", "TMPDIR", "HOME", "JAVA_HOME")
PASSED_TO_BRIDGE = (
    "WIRE_SERVER_DB",
    "WIRE_BACKEND_ID",
    "WIRE_PRINCIPAL",
    "WIRE_CLOCK_EPOCH",
    "WIRE_FINGERPRINT_KEY_HEX",
    "WIRE_FAULT",
    # the PostgreSQL ledger, when one is configured: its URL, role, and the password's file (or the password)
    "WIRE_LEDGER_URL",
    "WIRE_LEDGER_USER",
    "WIRE_LEDGER_PASSWORD_FILE",
    "WIRE_LEDGER_PASSWORD",
)
# The bridge's stdout is its wire: these keep the JVM's own logging on stderr. The shared rule table
# vectors/rules/stdio-jvm-options.json holds the same list for every launcher (a test compares them).
STDIO_JVM_OPTIONS = ("-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr")
# A bridge lives as long as its fixture, mostly one case: C1, the serial collector, a small heap
# (vectors/rules/case-jvm-options.json, the options the lab gives a case's JVMs).
CASE_JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-XX:-UsePerfData")
# src/continuation_replay_fixture/ -> py-fixture/ -> the repository, where bridge/target/bridge.jar is.
REPO_ROOT = Path(__file__).resolve().parents[3]


class BridgeCommandError(ValueError):
    pass


def default_bridge_command(repo_root: Path, env: Mapping[str, str]) -> "list[str]":
    """java <stdio options> <case options> -jar <repo>/bridge/target/bridge.jar, java from JAVA_HOME when it is set."""
    java_home = env.get("JAVA_HOME", "")
    java = os.path.join(java_home, "bin", "java") if java_home else "java"
    return [java, *STDIO_JVM_OPTIONS, *CASE_JVM_OPTIONS, "-jar", str(repo_root / "bridge" / "target" / "bridge.jar")]


def bridge_command(repo_root: Path, env: Mapping[str, str]) -> "list[str]":
    """LAB_BRIDGE_COMMAND (a JSON array of argv strings) when set, else the default."""
    configured = env.get(BRIDGE_COMMAND, "")
    if configured == "":
        return default_bridge_command(repo_root, env)
    try:
        argv = json.loads(configured)
    except ValueError:
        raise BridgeCommandError(f"{BRIDGE_COMMAND} must be a JSON array of strings") from None
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) and a != "" for a in argv):
        raise BridgeCommandError(f"{BRIDGE_COMMAND} must be a JSON array of strings")
    return argv


def bridge_environment(env: Mapping[str, str]) -> "dict[str, str]":
    """The bridge child's whole environment."""
    return {name: env[name] for name in (*INHERITED, *PASSED_TO_BRIDGE) if name in env}
