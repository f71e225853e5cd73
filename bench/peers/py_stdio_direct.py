"""Baseline for the bridge's overhead: `tools/call` straight over stdio to the Python SDK's stdio
weather server, one call at a time, no HTTP.

    python py_stdio_direct.py SERVER_SCRIPT CALLS

Prints `direct: calls=N p50_ms=… p99_ms=…`.
"""

import json
import subprocess
import sys
import time


def main() -> None:
    script, calls = sys.argv[1], int(sys.argv[2])
    child = subprocess.Popen(
        [sys.executable, script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )

    def send(message):
        child.stdin.write(json.dumps(message) + "\n")
        child.stdin.flush()

    def call(message):
        send(message)
        while True:
            answer = json.loads(child.stdout.readline())
            if answer.get("id") == message["id"]:
                return answer

    call({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}})
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    times = []
    for i in range(1, calls + 1):
        started = time.perf_counter()
        answer = call({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "get_weather", "arguments": {"location": "Tokyo"}}})
        times.append((time.perf_counter() - started) * 1000)
        if answer["result"]["content"][0]["text"] != "Sunny":
            raise SystemExit(f"unexpected answer: {answer}")
    child.kill()
    times.sort()
    p50 = times[len(times) // 2]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"direct: calls={calls} p50_ms={p50:.3f} p99_ms={p99:.3f}")


if __name__ == "__main__":
    main()
