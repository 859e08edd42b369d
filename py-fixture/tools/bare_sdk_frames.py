"""What the Python SDK's stdio transport does, without the fixture's frame gate, with each line of
vectors/rules/strict-frames.json. Run from py-fixture/ with the lab's WIRE_* environment set:

    .venv/bin/python tools/bare_sdk_frames.py evidence/bare-sdk-strict-frames.json

One bare server process (the fixture's tools and state boundary, `stdio_server()` with no gate); a tools/list first
(it opens the 2026-07-28 era), then each case's line followed by a ping probe with an id of its own; every line the
server writes before the probe's answer is what it did with the case's line ([] = no reply at all).
"""

import json
import os
import select
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
BARE = """
import os, sys
sys.path.insert(0, %r)
import anyio
import mcp.server.request_state as rs
from mcp.server.stdio import stdio_server
from continuation_replay_fixture import server as s
from continuation_replay_fixture.bridge_client import BridgeClient
from continuation_replay_fixture.bridge_command import bridge_environment
async def serve(config, argv):
    bridge = BridgeClient(argv, bridge_environment(os.environ))
    srv = s.build_server(config, bridge)
    async with stdio_server() as (r, w):
        await srv.run(r, w, srv.create_initialization_options())
    await bridge.close()
config, argv = s.configure()
s.pin_request_state_clock(rs, config.clock_epoch)
anyio.run(serve, config, argv)
""" % str(HERE / "src")




def main(out_path: str) -> int:
    sys.path.insert(0, str(HERE / "tests"))
    from rule_table import line_bytes, load_rule_table

    _, cases = load_rule_table("strict-frames.json", follows="typescript")
    server = subprocess.Popen([sys.executable, "-c", BARE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)

    def send(line: bytes) -> None:
        server.stdin.write(line + b"\n")
        server.stdin.flush()

    def read_until(probe_id: str) -> list:
        got = []
        while True:
            ready, _, _ = select.select([server.stdout], [], [], 20)
            line = server.stdout.readline() if ready else b""
            if not line:
                return got + ["<no answer to the probe>"]
            if f'"id":"{probe_id}"'.encode() in line:
                return got
            got.append(line.rstrip(b"\n").decode("utf-8", "replace"))

    send(json.dumps({"jsonrpc": "2.0", "id": "open", "method": "tools/list", "params": {"_meta": META}}).encode())
    read_until("open")
    record = {}
    for n, case in enumerate(cases):
        send(line_bytes(case.row["line"]))
        probe = f"probe-{n}"
        send(json.dumps({"jsonrpc": "2.0", "id": probe, "method": "ping", "params": {"_meta": META}}).encode())
        record[case.name] = {"sdk": read_until(probe), "gate": case.expected}
    server.stdin.close()
    server.wait(timeout=30)
    Path(out_path).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    reply = [r for r in record.values() if r["gate"]["verdict"] == "reply"]
    silent = sum(1 for r in reply if not r["sdk"])
    same = sum(1 for r in reply if r["sdk"] == [r["gate"]["line"]])
    print(f"{len(record)} lines; {len(reply)} get a reply from the gate; the bare SDK answered {silent} of them not at "
          f"all, {same} exactly as the gate, {len(reply) - silent - same} otherwise")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
