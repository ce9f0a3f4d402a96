"""An MCP server over stdio, in Python, that answers JSON-RPC batches (MCP 2025-03-26 allows them).

Every line it receives is appended, byte for byte, to RAW_LOG. A batch is answered with a batch of
the answers to its requests (none for notifications). Tools: `count` (n: integer), which refuses a
number written as a float, as a strict server does.
"""
import json
import os
import sys

RAW_LOG = os.environ["RAW_LOG"]
TOOLS = [{"name": "count", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]


def answer(message):
    if not isinstance(message, dict) or "id" not in message:
        return None
    method, ident = message.get("method"), message["id"]
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "batch-python", "version": "1.0.0"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        n = (message["params"].get("arguments") or {}).get("n")
        ok = isinstance(n, int) and not isinstance(n, bool)
        result = {"content": [{"type": "text", "text": f"n={n!r}"}], "isError": not ok}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


for line in sys.stdin.buffer:
    with open(RAW_LOG, "ab") as log:
        log.write(line)
    if not line.strip():
        continue
    message = json.loads(line.decode("utf-8", errors="replace"))
    if isinstance(message, list):
        answers = [a for a in map(answer, message) if a is not None]
        if answers:
            sys.stdout.write(json.dumps(answers) + "\n")
    else:
        reply = answer(message)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
