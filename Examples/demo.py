#!/usr/bin/env python3
"""Plays a scripted JSON-RPC conversation against the real transition-host and prints what each transition did.

    python3 Examples/demo.py [HOST] [--script FILE] [--emit]

HOST is the transition-host executable: the argument, else $TRANSITION_HOST_BIN, else the one in
`swift build --show-bin-path` (a debug build in the repository). FILE defaults to Examples/demo.jsonrpc.
`make demo` builds the host and runs this script; the script needs nothing but Python 3's standard library.

The conversation file (see the header of Examples/demo.jsonrpc) holds JSON-RPC messages, one or several lines each,
`//` comments, `#` headings (printed here) and `// expect: {...}` lines: the `transition/didEnd` a transition must
have sent by then, exactly. The script sends the messages one by one and waits for each request's reply, so the
frames and notifications each request causes are read before it goes on.

For each transition it prints a table: one row per frame (time, percent, phase) with, for every view that moves
(its own frame, transform, anchor point or alpha changes, or it comes and goes while the transition runs), its
bounding box in the container (x, y, width, height) and its opacity; then how the transition ended. It then checks
the end state: a cancelled transition must have put every view back as it was given, a completed one must have
settled the hierarchy as UIKit does (CONVENTIONS.md, "Which views are where") and undone its temporary changes.

Exit status: 0 when every reply succeeded and every transition ended as expected and passed its checks, 1
otherwise, 2 when the host or the script cannot be found. `--emit` prints the messages as the wire carries them
instead (one compact line each), for example to pipe them into the host yourself:
`python3 Examples/demo.py --emit | transition-host`.
"""

import json
import os
import select
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_SCRIPT = os.path.join(HERE, "demo.jsonrpc")
# How long to wait for the host's next message before giving up on it (a hang, not a slow machine).
REPLY_TIMEOUT = 60.0
# Differences below this are rounding in the last printed digit, not a view that moved.
EPSILON = 1e-9
# Views whose own state the animator may change; `hidden` is reported apart (see `hidden_during`).
OWN_STATE = ("frame", "bounds", "position", "anchorPoint", "transform", "alpha")
IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
# Operations after which the from root has left the container (CONVENTIONS.md, "Which views are where").
REMOVES_FROM_ROOT = ("dismiss", "unwind", "push", "pop")


class DemoError(Exception):
    """A problem that ends the demo (exit status 1)."""


# ---- the conversation file ---------------------------------------------------------------------------------------


def read_script(path):
    """The items of a conversation file: ("say", text), ("expect", params) and ("send", message), each with its line.

    A message starts on a line beginning with `{` and runs over as many lines as it takes to be one JSON value.
    """
    items = []
    pending, start = [], 0
    with open(path, encoding="utf-8") as file:
        lines = file.read().splitlines()
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if pending:
            pending.append(line)
            message = _parse("\n".join(pending))
            if message is not None:
                items.append(("send", message, start))
                pending = []
            continue
        if not stripped:
            continue
        if stripped.startswith("// expect:"):
            expected = _parse(stripped[len("// expect:"):])
            if not isinstance(expected, dict) or not isinstance(expected.get("transition"), str):
                raise DemoError(f"{path}:{number}: `// expect:` needs a JSON object with a \"transition\"")
            items.append(("expect", expected, number))
        elif stripped.startswith("//"):
            continue
        elif stripped.startswith("#"):
            items.append(("say", stripped.lstrip("#").strip(), number))
        elif stripped.startswith("{"):
            message = _parse(line)
            if message is None:
                pending, start = [line], number
            else:
                items.append(("send", message, number))
        else:
            raise DemoError(f"{path}:{number}: expected a JSON-RPC message, a // comment or a # heading")
    if pending:
        raise DemoError(f"{path}:{start}: this message never becomes valid JSON")
    ids = set()
    for kind, message, number in items:
        if kind != "send":
            continue
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            raise DemoError(f"{path}:{number}: a message must be a JSON-RPC request or notification object")
        if "id" in message:
            key = json.dumps(message["id"])
            if key in ids:
                raise DemoError(f"{path}:{number}: request id {key} is used twice")
            ids.add(key)
    return items


def _parse(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


def wire(message):
    """A message as one compact line (newline framing)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


# ---- the host process --------------------------------------------------------------------------------------------


class Host:
    """transition-host on pipes: newline-framed JSON-RPC in and out; its stderr (logs) goes to ours."""

    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buffer = b""
        self.closed = False

    def send(self, message):
        try:
            self.process.stdin.write((wire(message) + "\n").encode("utf-8"))
            self.process.stdin.flush()
        except BrokenPipeError:
            raise DemoError("the host stopped reading its input") from None

    def receive(self):
        """The host's next message, or None at the end of its output."""
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            if self.closed:
                return None
            ready, _, _ = select.select([fd], [], [], REPLY_TIMEOUT)
            if not ready:
                raise DemoError(f"the host sent nothing for {REPLY_TIMEOUT:.0f} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                self.closed = True
                if self.buffer.strip():
                    raise DemoError(f"the host's output ended inside a message: {self.buffer[:200]!r}")
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            return json.loads(line)
        except ValueError:
            raise DemoError(f"the host wrote a line that is not JSON: {line[:200]!r}") from None

    def close_input(self):
        if not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass

    def wait(self):
        try:
            return self.process.wait(timeout=REPLY_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise DemoError("the host did not exit after its input ended") from None


# ---- one transition ----------------------------------------------------------------------------------------------


class Transition:
    """What the host said about one transition: its frames, the control calls' outcomes, its end."""

    def __init__(self, transition_id, request, duration):
        self.id = transition_id
        self.request = request
        self.duration = duration
        self.rows = []  # ("frame", params) or ("event", text), in the order they happened
        self.ended = None  # the transition/didEnd params
        self.expected = False

    @property
    def frames(self):
        return [row for kind, row in self.rows if kind == "frame"]

    def title(self):
        request = self.request
        mode = "interactive" if request.get("interactive") else "on its own"
        params = request.get("params")
        extra = f", params {wire(params)}" if params else ""
        return (
            f"{self.id}  {request['animator']} · {request['operation']} · {self.duration:g} s · {mode}{extra}"
        )

    def input_nodes(self):
        """Every node of the from and to trees by id, with the tree ("from"/"to") it belongs to."""
        nodes = {}

        def visit(node, tree):
            nodes[node["id"]] = (node, tree)
            for child in node.get("children") or []:
                visit(child, tree)

        visit(self.request["from"], "from")
        visit(self.request["to"], "to")
        return nodes


def moving_views(transition):
    """Ids of the views that move, in drawing order of their first appearance (see the module's doc)."""
    frames = transition.frames
    running = frames[:-1] if len(frames) > 1 else frames
    order, states, present_in = [], {}, {}
    for index, frame in enumerate(frames):
        for view in frame["views"]:
            if view["parent"] is None:
                continue
            if view["id"] not in states:
                order.append(view["id"])
                states[view["id"]] = []
                present_in[view["id"]] = set()
            states[view["id"]].append(tuple(_flatten(view.get(key)) for key in OWN_STATE))
            present_in[view["id"]].add(index)
    moving = []
    for view_id in order:
        values = states[view_id]
        changes = any(not _close(values[0], value) for value in values[1:])
        comes_and_goes = 0 < len(present_in[view_id] & set(range(len(running)))) < len(running)
        if changes or comes_and_goes:
            moving.append(view_id)
    return moving


def hidden_during(transition):
    """Ids of the views some frame shows hidden while the last one does not (e.g. a shared element in flight)."""
    frames = transition.frames
    last = {view["id"]: view for view in frames[-1]["views"]} if frames else {}
    hidden = []
    for frame in frames[:-1]:
        for view in frame["views"]:
            if view["hidden"] and not last.get(view["id"], {}).get("hidden", False) and view["id"] not in hidden:
                hidden.append(view["id"])
    return hidden


def _flatten(value):
    if isinstance(value, dict):
        return tuple(_flatten(value[key]) for key in sorted(value))
    if isinstance(value, list):
        return tuple(_flatten(item) for item in value)
    return value


def _close(a, b):
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) <= EPSILON
    return a == b


# ---- checks of the end state -------------------------------------------------------------------------------------


def check_end(transition):
    """Problems with the last frame, given how the transition ended (an empty list when it is right)."""
    frames = transition.frames
    if not frames:
        return ["no frame arrived"]
    last = {view["id"]: view for view in frames[-1]["views"]}
    roots = [view["id"] for view in frames[-1]["views"] if view["parent"] == "container"]
    nodes = transition.input_nodes()
    from_root, to_root = transition.request["from"]["id"], transition.request["to"]["id"]
    problems = []
    ended = transition.ended
    if ended.get("cancelled"):
        if from_root not in roots:
            problems.append(f"the from root {from_root} is not back in the container")
        extra = [view_id for view_id in last if view_id != "container" and view_id not in nodes]
        if extra:
            problems.append(f"views the animator made are still there: {', '.join(extra)}")
        for view_id, (node, _) in nodes.items():
            if view_id in last:
                problems += _differences(last[view_id], node, with_frame=True)
    elif ended.get("completed"):
        if to_root not in roots:
            problems.append(f"the to root {to_root} is not in the container")
        if transition.request["operation"] in REMOVES_FROM_ROOT:
            if from_root in last:
                problems.append(f"the from root {from_root} is still in the container")
            extra = [view_id for view_id in last if view_id != "container" and view_id not in nodes]
            if extra:
                problems.append(f"views the animator made are still there: {', '.join(extra)}")
        for view_id, (node, _) in nodes.items():
            if view_id in last:
                problems += _differences(last[view_id], node, with_frame=False)
    return problems


def _differences(view, node, with_frame):
    """How a view in a frame differs from its input node (its frame too when `with_frame`)."""
    expected = {
        "alpha": node.get("alpha", 1),
        "hidden": node.get("hidden", False),
        "transform": node.get("transform", IDENTITY),
        "anchorPoint": node.get("anchorPoint", {"x": 0.5, "y": 0.5}),
    }
    if with_frame and "frame" in node:
        expected["frame"] = node["frame"]
    return [
        f"{view['id']}.{key} is {wire(view.get(key))}, not {wire(value)} as given"
        for key, value in expected.items()
        if not _close(_flatten(view.get(key)), _flatten(value))
    ]


# ---- printing ----------------------------------------------------------------------------------------------------

COLUMN = 37  # one view: x, y, width, height, opacity


def _number(value, digits=1):
    text = f"{value + 0.0:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _cell(view):
    if view is None:
        return "(not in the container)".center(COLUMN)
    box = view.get("boundingBox")
    if box is None:
        geometry = "(behind the eye)".center(29)
    else:
        geometry = "".join(
            _number(box[key]).rjust(width) for key, width in (("x", 7), ("y", 8), ("width", 7), ("height", 7))
        )
    return f"{geometry}  {_number(view['opacity'], 2).rjust(6)}"


def print_table(transition, out):
    views = moving_views(transition)
    print(f"\n{transition.title()}", file=out)
    lead = "    time     %  phase      "
    heads = "".join("  " + f"{view_id[:COLUMN - 1]} ".ljust(COLUMN, "─") for view_id in views)
    print(f"{' ' * len(lead)}{heads}", file=out)
    units = "".join("  " + "x       y      w      h  opacity".rjust(COLUMN) for _ in views)
    print(f"{lead}{units}", file=out)
    for kind, row in transition.rows:
        if kind == "event":
            print(f"   ↳ {row}", file=out)
            continue
        by_id = {view["id"]: view for view in row["views"]}
        cells = "".join("  " + _cell(by_id.get(view_id)) for view_id in views)
        print(f"  {row['time']:6.3f}  {row['percent'] * 100:4.0f}  {row['phase']:<10}{cells}", file=out)
    hidden = hidden_during(transition)
    if hidden:
        print(f"   hidden while it ran: {', '.join(hidden)}", file=out)


def describe_end(transition, problems):
    ended = transition.ended
    last = transition.frames[-1]["views"] if transition.frames else []
    roots = ", ".join(view["id"] for view in last if view["parent"] == "container")
    if ended.get("completed"):
        return f"completed at {transition.frames[-1]['time']:g} s; the container now holds {roots or 'nothing'}"
    if ended.get("cancelled"):
        reason = f" ({ended['reason']})" if "reason" in ended else ""
        restored = "" if problems else "; every view is back as it was given"
        return f"cancelled{reason}{restored} (the container holds {roots or 'nothing'})"
    error = ended.get("error") or {}
    return f"failed: {ended.get('reason')} {error.get('message', '')}".strip()


# ---- the conversation --------------------------------------------------------------------------------------------


class Demo:
    def __init__(self, host, out):
        self.host = host
        self.out = out
        self.transitions = {}
        self.problems = []

    def play(self, items):
        for kind, value, line in items:
            if kind == "say":
                print(f"\n== {value}", file=self.out)
            elif kind == "expect":
                self.expect(value, line)
            else:
                self.send(value, line)
                if value["method"] == "exit":
                    break  # the host reads nothing after exit
        self.host.close_input()
        while True:
            message = self.host.receive()
            if message is None:
                break
            if "id" in message:
                raise DemoError(f"a reply nobody waited for: {wire(message)[:300]}")
            self.notification(message)
        status = self.host.wait()
        if status != 0:
            self.problems.append(f"the host exited with status {status}")
        for transition in self.transitions.values():
            if transition.ended is None:
                self.problems.append(f"{transition.id} never ended")
            elif not transition.expected:
                self.problems.append(f"{transition.id} ended without an `// expect:` line in the script")
        return status

    def send(self, message, line):
        self.host.send(message)
        if "id" not in message:
            return
        while True:
            reply = self.host.receive()
            if reply is None:
                raise DemoError(f"line {line}: the host ended before answering {message['method']}")
            if "method" in reply and "id" not in reply:
                self.notification(reply)
            elif reply.get("id") == message["id"]:
                break
            else:
                raise DemoError(f"line {line}: a reply to another request: {wire(reply)[:300]}")
        if "error" in reply:
            error = reply["error"]
            raise DemoError(
                f"line {line}: {message['method']} failed: {error.get('code')} {error.get('message')}"
                + (f" {wire(error['data'])}" if "data" in error else "")
            )
        self.result(message, reply["result"])

    def result(self, request, result):
        method, params = request["method"], request.get("params") or {}
        if method == "initialize":
            info, abi = result["serverInfo"], result["pluginABI"]
            print(
                f"{info['name']} {info['version']}: protocol {result['protocolVersion']}, "
                f"plugin ABI {abi['major']}.{abi['minor']}",
                file=self.out,
            )
        elif method == "animators/list":
            print("animators:", file=self.out)
            animators = result["animators"]
            width = max((len(animator["id"]) for animator in animators), default=0)
            for animator in animators:
                operations = ", ".join(animator["operations"] or ["any"])
                defaults = ", ".join(f"{p['name']} {wire(p['default'])}" for p in animator["params"])
                print(f"  {animator['id']:<{width}}  {operations:<16} {defaults}", file=self.out)
        elif method == "transition/start":
            transition = Transition(result["transition"], params, result["duration"])
            self.transitions[transition.id] = transition
        elif method in ("transition/release", "transition/finish", "transition/cancel", "transition/reverse"):
            transition = self.transitions.get(result["transition"])
            if transition is not None:
                verb = method.split("/")[1]
                velocity = f" with velocity {params['velocity']:g}/s" if "velocity" in params else ""
                decision = f" → {result['decision']}" if "decision" in result else ""
                transition.rows.append(
                    ("event", f"{verb} at {result['percent'] * 100:.0f} %{velocity}{decision}: {result['phase']}")
                )

    def notification(self, message):
        method, params = message.get("method"), message.get("params") or {}
        if method == "transition/frame":
            transition = self.transitions.get(params.get("transition"))
            if transition is None:
                raise DemoError(f"a frame of a transition never started: {params.get('transition')}")
            transition.rows.append(("frame", params))
        elif method == "transition/didEnd":
            transition = self.transitions.get(params.get("transition"))
            if transition is None:
                raise DemoError(f"didEnd of a transition never started: {params.get('transition')}")
            if transition.ended is not None:
                self.problems.append(f"{transition.id} sent transition/didEnd twice")
                return
            transition.ended = params
            print_table(transition, self.out)
            problems = check_end(transition)
            mark = "✗" if problems else "→"
            print(f"   {mark} {describe_end(transition, problems)}", file=self.out)
            for problem in problems:
                print(f"     ✗ {problem}", file=self.out)
            self.problems += [f"{transition.id}: {problem}" for problem in problems]
        elif method == "window/logMessage":
            kinds = {1: "error", 2: "warning", 3: "info", 4: "log"}
            kind = kinds.get(params.get("type"), "log")
            print(f"   host {kind}: {params.get('message')}", file=self.out)
            if params.get("type") in (1, 2):
                self.problems.append(f"the host reported a {kind}: {params.get('message')}")

    def expect(self, expected, line):
        transition = self.transitions.get(expected["transition"])
        if transition is None:
            raise DemoError(f"line {line}: expects the end of {expected['transition']}, which was never started")
        if transition.ended is None:
            self.problems.append(f"line {line}: {transition.id} had not ended by then")
        elif transition.ended != expected:
            self.problems.append(
                f"line {line}: {transition.id} ended with {wire(transition.ended)}, expected {wire(expected)}"
            )
        transition.expected = True


def find_host(argument):
    if argument:
        return argument
    if os.environ.get("TRANSITION_HOST_BIN"):
        return os.environ["TRANSITION_HOST_BIN"]
    try:
        folder = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return os.path.join(folder, "transition-host")


def main(argv):
    arguments, script, emit = [], DEFAULT_SCRIPT, False
    rest = iter(argv)
    for argument in rest:
        if argument == "--script":
            script = next(rest, None)
        elif argument == "--emit":
            emit = True
        elif argument in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            arguments.append(argument)
    if script is None or len(arguments) > 1:
        print("usage: demo.py [HOST] [--script FILE] [--emit]", file=sys.stderr)
        return 2
    try:
        items = read_script(script)
    except OSError as error:
        print(f"demo: cannot read the conversation: {error}", file=sys.stderr)
        return 2
    except DemoError as error:
        print(f"demo: {error}", file=sys.stderr)
        return 1
    if emit:
        for kind, message, _ in items:
            if kind == "send":
                print(wire(message))
        return 0

    host_path = find_host(arguments[0] if arguments else None)
    if not host_path or not os.access(host_path, os.X_OK):
        print(f"demo: no transition-host executable at {host_path} (build it first: swift build)", file=sys.stderr)
        return 2
    out = sys.stdout
    out.reconfigure(line_buffering=True)  # tables appear as transitions end, in order with the host's stderr
    print(f"host: {host_path}\nconversation: {os.path.relpath(script)}\n", file=out)
    demo = Demo(Host(host_path), out)
    try:
        demo.play(items)
    except DemoError as error:
        demo.host.close_input()
        demo.host.process.kill()
        demo.host.process.wait()
        print(f"\ndemo: {error}", file=sys.stderr)
        return 1
    ended = [t for t in demo.transitions.values() if t.ended is not None]
    completed = sum(1 for t in ended if t.ended.get("completed"))
    cancelled = sum(1 for t in ended if t.ended.get("cancelled"))
    print(f"\n{len(demo.transitions)} transitions: {completed} completed, {cancelled} cancelled.", file=out)
    if demo.problems:
        print("demo: FAILED", file=sys.stderr)
        for problem in demo.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print("Every transition ended as the conversation expects; the host exited with status 0.", file=out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        # Our reader went away (e.g. `| head`): stop quietly; the host sees its input end and exits too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
