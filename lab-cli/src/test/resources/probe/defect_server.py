"""A small MCP server (protocol 2026-07-28, stdio) written for lab probe's tests, with one defect chosen at start.

    python3 defect_server.py DATABASE DEFECT

Three tools. count_orders() answers {"count": rows} (an observer for --effects-tool). create_order(order_id, item):
round one asks for a note (an elicitation form); the continuation commits one row to the table `orders` of DATABASE
(SQLite) and answers {"order_id", "row", "replayed"}. place_order(order_id, item) does the same in one round (no
note), for the single-round checks; order_id is its idempotency key, bound to the principal and the item (another
principal's call with it is refused, -32000; another item, -32602), and "slow": true holds the call two seconds. Without a defect ("none")
the state is sealed with an HMAC bound to the arguments, and a second continuation of the same order answers the
stored row; so lab probe passes every check on it. Each defect breaks exactly one rule:

  no-dedupe        every continuation commits another row
  refuse-retry     a continuation of an order already committed is refused, not answered
  different-answer a continuation of an order already committed answers a new row number
  unsigned-state   the state is base64url JSON without a MAC, and the server commits what it says
  unbound-args     the state is not bound to the arguments, and the order is keyed by (order_id, item)
  unbound-answers  the order is keyed by (order_id, note): a changed answer commits again
  unbound-principal the state is not bound to the principal (DEFECT_PRINCIPAL, default alice): another one may use it
  in-memory        the committed orders live in memory: a restart forgets them
  ttl-ignored      the state's lifetime (DEFECT_STATE_TTL seconds, default 600) is not checked
  racy             the check for a committed order and the insert are not atomic (requests run on threads)
  lost-effect      orders are kept by load, modify, save of the whole table (requests run on threads): calls at once
                   overwrite each other's rows, though each is answered as placed
  cached           place_order keeps the table in memory from its start and writes it back whole: a second process on
                   the same database overwrites the first one's orders

DEFECT_PROTOCOL (default 2026-07-28) picks the era. At 2026-07-28 every request carries the version in its _meta and
server/discover offers it. At an earlier version (2025-11-25, 2025-06-18, ...) server/discover is unknown (-32601),
initialize answers that version, and create_order asks for its note with an elicitation/create request to the client
in the middle of the one tools/call (requests then run on threads, so the answer can arrive).

Stdout is the wire; nothing else is written there. The HMAC key comes from DEFECT_SERVER_KEY (hex) or a fixed test key.
"""

import base64
import hashlib
import hmac
import json
import os
import sqlite3
import sys
import threading
import time

DATABASE, DEFECT = sys.argv[1], sys.argv[2]
KEY = bytes.fromhex(os.environ.get("DEFECT_SERVER_KEY", "11" * 32))
PRINCIPAL = os.environ.get("DEFECT_PRINCIPAL", "alice")
TTL = float(os.environ.get("DEFECT_STATE_TTL", "600"))
PROTOCOL = os.environ.get("DEFECT_PROTOCOL", "2026-07-28")
LEGACY = PROTOCOL != "2026-07-28"
WRITE = threading.Lock()
MEMORY = {}
ASKED = {}
ASK_IDS = iter(range(1, 1 << 30))


def out(message):
    with WRITE:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def db():
    connection = sqlite3.connect(DATABASE, timeout=30, isolation_level=None)
    connection.execute("CREATE TABLE IF NOT EXISTS orders(row INTEGER PRIMARY KEY, order_id TEXT, item TEXT, note TEXT,"
                       " principal TEXT DEFAULT '')")
    return connection


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def seal(arguments):
    if DEFECT == "unsigned-state":
        return b64(json.dumps({"order_id": arguments["order_id"], "item": arguments["item"]}).encode())
    bound = {} if DEFECT == "unbound-args" else arguments
    payload = json.dumps({"tool": "create_order", "args": bound, "principal": PRINCIPAL, "t": time.time()}, sort_keys=True).encode()
    return b64(payload) + "." + b64(hmac.new(KEY, payload, hashlib.sha256).digest())


def opened(state, arguments):
    """The arguments the continuation may commit, or None when the state is refused."""
    try:
        if DEFECT == "unsigned-state":
            return json.loads(unb64(state))
        payload, mac = state.split(".")
        if not hmac.compare_digest(unb64(mac), hmac.new(KEY, unb64(payload), hashlib.sha256).digest()):
            return None
        bound = json.loads(unb64(payload))
        if bound.get("tool") != "create_order" or (DEFECT != "unbound-args" and bound.get("args") != arguments):
            return None
        if DEFECT != "unbound-principal" and bound.get("principal") != PRINCIPAL:
            return None
        if DEFECT != "ttl-ignored" and time.time() - bound.get("t", 0) > TTL:
            return None
        return arguments
    except (ValueError, KeyError, TypeError):
        return None


def commit(order, note):
    if DEFECT == "lost-effect":
        return save_all(order, note)
    key = order["order_id"]
    if DEFECT == "unbound-args":
        key = order["order_id"] + "|" + order["item"]
    if DEFECT == "unbound-answers":
        key = order["order_id"] + "|" + note
    connection = db()
    try:
        if DEFECT == "in-memory":
            if key in MEMORY:
                return MEMORY[key], True
        elif DEFECT != "no-dedupe":
            if DEFECT != "racy":
                connection.execute("BEGIN IMMEDIATE")
            found = connection.execute("SELECT row FROM orders WHERE order_id = ?", (key,)).fetchone()
            if found:
                if DEFECT != "racy":
                    connection.execute("COMMIT")
                if DEFECT == "refuse-retry":
                    raise PermissionError("order already placed")
                if DEFECT == "different-answer":
                    return found[0] + 1000, True
                return found[0], True
            if DEFECT == "racy":
                time.sleep(0.05)
        if order.get("slow") is True:
            time.sleep(2)
        row = connection.execute("INSERT INTO orders(order_id, item, note, principal) VALUES (?, ?, ?, ?)",
                                 (key, order["item"], note, PRINCIPAL)).lastrowid
        if DEFECT not in ("no-dedupe", "in-memory", "racy"):
            connection.execute("COMMIT")
        MEMORY[key] = row
        return row, False
    finally:
        connection.close()


def write_all(connection, rows):
    """The whole table replaced by rows, in one transaction: what both whole-table defects do."""
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("DELETE FROM orders")
    connection.executemany("INSERT INTO orders(order_id, item, note, principal) VALUES (?, ?, ?, ?)", rows)
    connection.execute("COMMIT")


def save_all(order, note):
    """The lost-effect defect: every row read, the new one added, the table written back whole, with no lock."""
    connection = db()
    try:
        rows = connection.execute("SELECT order_id, item, note, principal FROM orders").fetchall()
        found = [r for r in rows if r[0] == order["order_id"]]
        if found:
            return rows.index(found[0]) + 1, True
        time.sleep(0.05)
        rows.append((order["order_id"], order["item"], note, PRINCIPAL))
        write_all(connection, rows)
        return len(rows), False
    finally:
        connection.close()


CACHE = None


def cached(order):
    """The cached defect: the table as this process loaded it first, written back whole after each new order."""
    global CACHE
    connection = db()
    try:
        if CACHE is None:
            CACHE = connection.execute("SELECT order_id, item, note, principal FROM orders").fetchall()
        found = [r for r in CACHE if r[0] == order["order_id"]]
        if found:
            return CACHE.index(found[0]) + 1, True
        CACHE.append((order["order_id"], order["item"], "-", PRINCIPAL))
        write_all(connection, CACHE)
        return len(CACHE), False
    finally:
        connection.close()


def place(params):
    arguments = params.get("arguments") or {}
    if not isinstance(arguments.get("order_id"), str) or not isinstance(arguments.get("item"), str):
        return {"resultType": "complete", "isError": True, "content": [{"type": "text", "text": "order_id and item are required"}]}
    order = {"order_id": arguments["order_id"], "item": arguments["item"], "slow": arguments.get("slow") is True}
    connection = db()
    try:
        # unbound-args keeps its rows under order_id|item, and still knows whose they are
        held = connection.execute("SELECT item, principal FROM orders WHERE order_id = ? OR order_id LIKE ? ORDER BY row LIMIT 1",
                                  (order["order_id"], order["order_id"] + "|%")).fetchone()
    finally:
        connection.close()
    if held and DEFECT != "unbound-principal" and held[1] not in ("", PRINCIPAL):
        raise PermissionError("order " + order["order_id"] + " belongs to another principal")
    if held and DEFECT != "unbound-args" and held[0] != order["item"]:
        raise ValueError("order_id reused with other arguments")
    if DEFECT == "cached":
        row, replayed = cached(order)
    else:
        row, replayed = commit(order, "-")
    result = {"order_id": arguments["order_id"], "row": row, "replayed": replayed}
    return {"resultType": "complete", "isError": False, "structuredContent": result,
            "content": [{"type": "text", "text": json.dumps(result)}]}


def ask_note():
    """Before 2026-07-28: the note by an elicitation/create request to the client, answered on the same pipe."""
    ident = "ask-" + str(next(ASK_IDS))
    waiter = threading.Event()
    ASKED[ident] = [waiter, None]
    out({"jsonrpc": "2.0", "id": ident, "method": "elicitation/create", "params": {
        "message": "A note for the order?", "requestedSchema": {"type": "object", "properties": {"note": {"type": "string"}},
                                                                "required": ["note"]}}})
    if not waiter.wait(30):
        return None
    return ASKED.pop(ident)[1]


def call(params):
    arguments = params.get("arguments") or {}
    if not isinstance(arguments.get("order_id"), str) or not isinstance(arguments.get("item"), str):
        return {"resultType": "complete", "isError": True, "content": [{"type": "text", "text": "order_id and item are required"}]}
    if LEGACY:
        answer = (ask_note() or {}).get("result") or {}
        note = (answer.get("content") or {}).get("note")
        if answer.get("action") != "accept" or not isinstance(note, str):
            return {"isError": True, "content": [{"type": "text", "text": "the note was not given"}]}
        row, replayed = commit(arguments, note)
        result = {"order_id": arguments["order_id"], "row": row, "replayed": replayed}
        return {"isError": False, "structuredContent": result, "content": [{"type": "text", "text": json.dumps(result)}]}
    state = params.get("requestState")
    if state is None:
        return {"resultType": "input_required", "requestState": seal(arguments), "inputRequests": {"note": {
            "method": "elicitation/create", "params": {"mode": "form", "message": "A note for the order?",
                                                       "requestedSchema": {"type": "object", "properties": {"note": {"type": "string"}},
                                                                           "required": ["note"]}}}}}
    order = opened(state, arguments)
    if order is None:
        raise ValueError("Invalid or expired requestState")
    answer = (params.get("inputResponses") or {}).get("note") or {}
    note = (answer.get("content") or {}).get("note")
    if answer.get("action") != "accept" or not isinstance(note, str):
        return {"resultType": "complete", "isError": True, "content": [{"type": "text", "text": "the note was not given"}]}
    row, replayed = commit(order, note)
    result = {"order_id": order["order_id"], "row": row, "replayed": replayed}
    return {"resultType": "complete", "isError": False, "structuredContent": result,
            "content": [{"type": "text", "text": json.dumps(result)}]}


COUNT = {"name": "count_orders", "inputSchema": {"type": "object", "properties": {}}}
TOOL = {"name": "create_order", "inputSchema": {"type": "object", "required": ["order_id", "item"],
                                                "properties": {"order_id": {"type": "string"}, "item": {"type": "string"}}}}
PLACE = {"name": "place_order", "inputSchema": {"type": "object", "required": ["order_id", "item"],
                                               "properties": {"order_id": {"type": "string"}, "item": {"type": "string"},
                                                              "slow": {"type": "boolean"}}}}


def handle(message):
    method, ident, params = message.get("method"), message.get("id"), message.get("params") or {}
    version = (params.get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion")
    if ident is None:
        return
    if method is None:
        waiting = ASKED.get(ident)
        if waiting is not None:
            waiting[1] = message
            waiting[0].set()
        return
    if LEGACY and method == "initialize":
        out({"jsonrpc": "2.0", "id": ident, "result": {"protocolVersion": PROTOCOL, "capabilities": {"tools": {}},
                                                        "serverInfo": {"name": "defect-server", "version": "0.1.0"}}})
        return
    if LEGACY and method == "server/discover":
        out({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "Method not found"}})
        return
    if not LEGACY and version != "2026-07-28":
        out({"jsonrpc": "2.0", "id": ident, "error": {"code": -32022, "message": "Unsupported protocol version"}})
        return
    try:
        if method == "server/discover":
            out({"jsonrpc": "2.0", "id": ident, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"],
                                                            "capabilities": {"tools": {}}}})
        elif method == "tools/list":
            out({"jsonrpc": "2.0", "id": ident, "result": {"resultType": "complete", "tools": [TOOL, PLACE, COUNT]}})
        elif method == "tools/call" and params.get("name") == "count_orders":
            connection = db()
            count = connection.execute("SELECT COUNT(*) FROM orders").fetchone()[0]
            connection.close()
            out({"jsonrpc": "2.0", "id": ident, "result": {"resultType": "complete", "isError": False,
                                                            "structuredContent": {"count": count},
                                                            "content": [{"type": "text", "text": str(count)}]}})
        elif method == "tools/call" and params.get("name") == "create_order":
            out({"jsonrpc": "2.0", "id": ident, "result": call(params)})
        elif method == "tools/call" and params.get("name") == "place_order":
            out({"jsonrpc": "2.0", "id": ident, "result": place(params)})
        else:
            out({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "Method not found"}})
    except PermissionError as refused:
        out({"jsonrpc": "2.0", "id": ident, "error": {"code": -32000, "message": str(refused)}})
    except ValueError as invalid:
        out({"jsonrpc": "2.0", "id": ident, "error": {"code": -32602, "message": str(invalid)}})


def main():
    db().close()
    threads = []
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if DEFECT in ("racy", "lost-effect") or LEGACY:
            thread = threading.Thread(target=handle, args=(message,))
            thread.start()
            threads.append(thread)
        else:
            handle(message)
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
