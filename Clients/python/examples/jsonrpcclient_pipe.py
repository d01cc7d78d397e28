#!/usr/bin/env python3
"""Talk to transition-host with a third-party JSON-RPC library: `jsonrpcclient` (PyPI, 4.x) builds requests and
parses replies, `subprocess` moves the lines. Only Protocol.md is needed — no code from this project.

    pip install jsonrpcclient
    TRANSITION_HOST_BIN=.build/debug/transition-host python3 Clients/python/examples/jsonrpcclient_pipe.py

jsonrpcclient is sans-I/O: `request(method, params)` returns a dict, `parse(reply)` turns a reply into `Ok` or
`Error`. The host frames messages one per line, and sends notifications (frames) between replies; a client reads
lines until the reply with its id comes, keeping the notifications.
"""

import json
import os
import shutil
import subprocess
import sys

from jsonrpcclient import Error, Ok, parse, request


class Pipe:
    def __init__(self, binary):
        self.process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.notifications = []

    def call(self, method, params=None):
        message = request(method, params=params)
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise ConnectionError("transition-host closed its output")
            reply = json.loads(line)
            if "method" in reply:  # a notification (transition/frame, transition/didEnd, window/logMessage)
                self.notifications.append(reply)
                continue
            if reply.get("id") == message["id"]:
                return parse(reply)

    def close(self):
        self.process.stdin.close()
        return self.process.wait(timeout=30)


def main():
    binary = os.environ.get("TRANSITION_HOST_BIN") or shutil.which("transition-host")
    if not binary:
        sys.exit("set TRANSITION_HOST_BIN or put transition-host on PATH")
    pipe = Pipe(binary)

    listed = pipe.call("animators/list")
    assert isinstance(listed, Ok), listed
    print("animators:", ", ".join(a["id"] for a in listed.result["animators"]))

    tree = lambda name, colour: {"id": name, "frame": {"x": 0, "y": 0, "width": 390, "height": 844},  # noqa: E731
                                 "backgroundColor": colour}
    started = pipe.call("transition/start", {
        "animator": "pull-down", "operation": "present", "container": {"width": 390, "height": 844},
        "from": tree("list", [1, 1, 1, 1]), "to": tree("detail", [0.2, 0.4, 0.9, 1]), "clock": "manual",
    })
    assert isinstance(started, Ok), started
    transition = started.result["transition"]
    print(f"started {transition}, {started.result['duration']} s")
    while not any(n["method"] == "transition/didEnd" for n in pipe.notifications):
        ticked = pipe.call("transition/tick", {"transition": transition, "dt": 0.1})
        assert isinstance(ticked, Ok), ticked
    frames = [n for n in pipe.notifications if n["method"] == "transition/frame"]
    end = next(n for n in pipe.notifications if n["method"] == "transition/didEnd")
    print(f"{len(frames)} frames; didEnd {end['params']}")

    wrong = pipe.call("transition/update", {"transition": transition, "percent": 0.5})
    assert isinstance(wrong, Error), wrong
    print(f"update after the end: Error {wrong.code}: {wrong.message}")

    status = pipe.close()
    print("exit status", status)
    return 0 if status == 0 and end["params"]["completed"] and wrong.code == 2006 else 1


if __name__ == "__main__":
    sys.exit(main())
