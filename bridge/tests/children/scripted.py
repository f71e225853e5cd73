"""A small stdio MCP server for the bridge's tests; what it does depends on the method.

- initialize: answers (protocol 2025-11-25), writes a line to stderr first.
- ping: answers {}.
- tools/list: get_weather, whose `units` is mirrored in `Mcp-Param-Units` (2026-07-28).
- tools/call: sends notifications/message, then the result.
- test/ask: sends the server request elicitation/create (id "srv-1"), waits for the client's
  answer on stdin, and returns it as its result.
- test/notify-later: answers, then a second later sends notifications/tools/list_changed.
- test/pids: starts a grandchild (`sleep 300`, same process group) and returns both pids.
- test/garbage: writes a line that is not JSON to stdout (and never answers).
- test/silent: never answers.
- test/progress-then-silent: sends a progress notification, then never answers.
- test/flood: writes 3 MB to stderr in 1 KB lines, then answers.
- test/env: returns the names of its environment variables.
- test/exit: exits with code 7 after writing "fatal: asked to exit" to stderr.
Notifications are ignored; everything read is echoed nowhere but stderr's "got METHOD" lines.
"""

import json
import os
import subprocess
import sys
import threading
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def result(msg_id, value):
    send({"jsonrpc": "2.0", "id": msg_id, "result": value})


def main():
    grandchildren = []
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        message = json.loads(raw)
        method = message.get("method")
        msg_id = message.get("id")
        log(f"got {method or 'response'}")
        if method is None or msg_id is None:
            continue
        if method == "initialize":
            result(msg_id, {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}, "logging": {}},
                "serverInfo": {"name": "scripted", "version": "1.0.0"},
            })
        elif method == "ping":
            result(msg_id, {})
        elif method == "tools/list":
            result(msg_id, {"tools": [{"name": "get_weather", "inputSchema": {
                "type": "object",
                "properties": {
                    "location": {"type": "string"},
                    "units": {"type": "string", "enum": ["celsius", "fahrenheit"],
                              "x-mcp-header": "Units"},
                },
                "required": ["location"],
            }}]})
        elif method == "tools/call":
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "info", "data": "working on it"}})
            result(msg_id, {"content": [{"type": "text", "text": "Sunny"}], "isError": False})
        elif method == "test/ask":
            send({"jsonrpc": "2.0", "id": "srv-1", "method": "elicitation/create",
                  "params": {"message": "Which one?", "requestedSchema": {"type": "object"}}})
            answer = json.loads(sys.stdin.readline())
            result(msg_id, {"answer": answer})
        elif method == "test/notify-later":
            result(msg_id, {})
            def later():
                time.sleep(1)
                send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
            threading.Thread(target=later, daemon=True).start()
        elif method == "test/pids":
            grandchild = subprocess.Popen(["sleep", "300"])
            grandchildren.append(grandchild)
            result(msg_id, {"pid": os.getpid(), "grandchild": grandchild.pid})
        elif method == "test/garbage":
            sys.stdout.write("Server ready (this line is not JSON)\n")
            sys.stdout.flush()
        elif method == "test/env":
            result(msg_id, {"names": sorted(os.environ)})
        elif method == "test/silent":
            pass
        elif method == "test/progress-then-silent":
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": 1, "progress": 1}})
        elif method == "test/flood":
            line = "e" * 1023
            for _ in range(3 * 1024):
                sys.stderr.write(line + "\n")
            sys.stderr.flush()
            log("flood done")
            result(msg_id, {})
        elif method == "test/exit":
            log("fatal: asked to exit")
            sys.exit(7)
        else:
            send({"jsonrpc": "2.0", "id": msg_id,
                  "error": {"code": -32601, "message": f"Method not found: {method}"}})


if __name__ == "__main__":
    main()
