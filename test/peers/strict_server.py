"""A strict MCP server over stdio, in Python: integers must be written as integers.

Like Kotlin, Pydantic strict, Rust i64 or Go int, it refuses `5.0` where its schema says
"integer". It reads JSON with Python's json module, which keeps 5 (int) and 5.0 (float) apart
and integers exact, and echoes what it received, with the Python type of every number. Used by
the tests of schema-coerce's MCP client adapter and of the proxy. With RAW_LOG set, it appends
every line it receives, byte for byte, to that file.

Tools: `get_symbol_info` (line, column: integer; filePath: string), `search` (q: string,
required), `add_tool` (adds `late_tool` and sends notifications/tools/list_changed), `calls`
(how many tools/call and tools/list requests reached it), `exit` (the server disappears). tools/list pages one
tool per page, with nextCursor.
"""
import json
import os
import sys

RAW_LOG = os.environ.get("RAW_LOG")

TOOLS = [
    {"name": "get_symbol_info", "description": "Look up a symbol.", "inputSchema": {
        "type": "object",
        "properties": {"line": {"type": "integer"}, "column": {"type": "integer"}, "filePath": {"type": "string"}},
        "required": ["line", "filePath"]}},
    {"name": "search", "description": "Search.", "inputSchema": {
        "type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["q"]}},
    {"name": "add_tool", "description": "Adds late_tool.", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "calls", "description": "Counts calls.", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "exit", "description": "Exits.", "inputSchema": {"type": "object", "properties": {}}},
]
LATE = {"name": "late_tool", "description": "Added after connect.", "inputSchema": {
    "type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}}
calls = 0
lists = 0


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def describe(value):
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return f"int:{value}"
    if isinstance(value, float):
        return f"float:{value!r}"
    if isinstance(value, list):
        return [describe(v) for v in value]
    if isinstance(value, dict):
        return {k: describe(v) for k, v in value.items()}
    return value


def call(name, args):
    global calls
    calls += 1
    tool = next((t for t in TOOLS if t["name"] == name), None)
    if tool is None:
        return {"content": [{"type": "text", "text": f"unknown tool {name}"}], "isError": True}
    if name == "add_tool":
        if LATE not in TOOLS:
            TOOLS.append(LATE)
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return {"content": [{"type": "text", "text": "added"}]}
    if name == "calls":
        return {"content": [{"type": "text", "text": f"calls:{calls - 1} lists:{lists}"}]}
    if name == "exit":
        sys.exit(int(args.get("code", 0)))
    for key, prop in tool["inputSchema"]["properties"].items():
        if prop.get("type") == "integer" and key in args and not (isinstance(args[key], int) and not isinstance(args[key], bool)):
            return {"content": [{"type": "text", "text": f"Failed to parse literal '{args[key]!r}' as an int value"}], "isError": True}
    return {"content": [{"type": "text", "text": json.dumps(describe(args), sort_keys=True)}]}


def main():
    for line in sys.stdin.buffer:
        if RAW_LOG:
            with open(RAW_LOG, "ab") as log:
                log.write(line)
        handle(line.decode("utf-8", errors="replace"))


def handle(line):
    global lists
    if not line.strip():
        return
    try:
        message = json.loads(line)
    except ValueError:
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        return
    if not isinstance(message, dict):
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Batches are not supported"}})
        return
    method, ident = message.get("method"), message.get("id")
    if ident is None:
        return
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"],
                  "capabilities": {"tools": {"listChanged": True}},
                  "serverInfo": {"name": "strict-python", "version": "1.0.0"}}
    elif method == "tools/list":
        lists += 1
        index = int((message.get("params") or {}).get("cursor") or 0)
        result = {"tools": TOOLS[index:index + 1]}
        if index + 1 < len(TOOLS):
            result["nextCursor"] = str(index + 1)
    elif method == "tools/call":
        result = call(message["params"]["name"], message["params"].get("arguments") or {})
    elif method == "ping":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}})
        return
    send({"jsonrpc": "2.0", "id": ident, "result": result})


main()
