#!/usr/bin/env python3
"""A scripted stand-in for transition-host, for the client's own edge cases (crashes, garbage, timing of
notifications against replies) that the real host never produces on purpose.

Methods: `echo` (result = params), `fail` (error = params), `burst` ({count}: that many `test/note`
notifications, then the reply {count}), `crash` ({status}: exit at once without replying), `garbage` (a line
that is not JSON, one that is not JSON-RPC, then the reply true), `hold` (no reply until `$/cancelRequest`, then
-32800), `ask` (sends the client a request and replies with the client's answer), `stderr` ({text}: writes it
to stderr, replies true), `split` (writes its reply in two separate writes), anything else: -32601. At stdin end
it writes a last `test/bye` notification and exits with status 0.
"""

import json
import os
import sys

FRAMING = "content-length" if "--framing" in sys.argv and "content-length" in sys.argv else "newline"
out = sys.stdout.buffer
inp = sys.stdin.buffer


def write_body(body: bytes) -> None:
    if FRAMING == "newline":
        out.write(body + b"\n")
    else:
        out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()


def send(message) -> None:
    write_body(json.dumps(message, separators=(",", ":")).encode())


def read_message():
    if FRAMING == "newline":
        line = inp.readline()
        if not line:
            return None
        return json.loads(line)
    length = None
    while True:
        header = inp.readline()
        if not header:
            return None
        header = header.strip()
        if not header:
            if length is not None:
                break
            continue
        name, _, value = header.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(inp.read(length))


held = {}
asked = None

while True:
    message = read_message()
    if message is None:
        send({"jsonrpc": "2.0", "method": "test/bye", "params": {"framing": FRAMING}})
        sys.exit(0)
    if "method" not in message:
        # The client's answer to our `ask` request.
        if asked is not None:
            send({"jsonrpc": "2.0", "id": asked, "result": message})
            asked = None
        continue
    method = message["method"]
    params = message.get("params")
    request_id = message.get("id")
    if method == "$/cancelRequest":
        cancelled = params["id"]
        if cancelled in held:
            del held[cancelled]
            send({"jsonrpc": "2.0", "id": cancelled, "error": {"code": -32800, "message": "Request cancelled."}})
        continue
    if request_id is None:
        continue
    if method == "echo":
        send({"jsonrpc": "2.0", "id": request_id, "result": params})
    elif method == "fail":
        send({"jsonrpc": "2.0", "id": request_id, "error": params})
    elif method == "burst":
        for index in range(params["count"]):
            send({"jsonrpc": "2.0", "method": "test/note", "params": {"index": index, "transition": "t%d" % (index % 2)}})
        send({"jsonrpc": "2.0", "id": request_id, "result": {"count": params["count"]}})
    elif method == "crash":
        os._exit(params["status"])
    elif method == "garbage":
        write_body(b"this is not JSON")
        write_body(b'{"hello":"world"}')
        send({"jsonrpc": "2.0", "id": request_id, "result": True})
    elif method == "hold":
        held[request_id] = True
    elif method == "ask":
        asked = request_id
        send({"jsonrpc": "2.0", "id": "server-1", "method": "client/whatever", "params": {}})
    elif method == "stderr":
        sys.stderr.write(params["text"] + "\n")
        sys.stderr.flush()
        send({"jsonrpc": "2.0", "id": request_id, "result": True})
    elif method == "split":
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": "whole"}).encode()
        framed = body + b"\n" if FRAMING == "newline" else b"Content-Length: %d\r\n\r\n" % len(body) + body
        half = len(framed) // 2
        out.write(framed[:half])
        out.flush()
        out.write(framed[half:])
        out.flush()
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found: " + method}})
