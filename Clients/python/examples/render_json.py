#!/usr/bin/env python3
"""Render a transition to JSON frames on the manual clock (no PNG, no browser): every `transition/frame` the host
sends while this script ticks it at 1/fps, plus its `transition/didEnd`, in one JSON document.

    TRANSITION_HOST_BIN=.build/debug/transition-host \\
        python3 Clients/python/examples/render_json.py --animator pull-down -o frames.json

The frames are the protocol's own (see Protocol.md, "Frames"). `transition-host render --format jsonl` gives the
same frames without Python; this shows how a script drives the host itself.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from transition_host_client import TransitionHost  # noqa: E402

# A small phone-sized scene: a list screen and a detail screen.
SCENE = {
    "container": {"width": 390, "height": 844},
    "from": {
        "id": "list",
        "frame": {"x": 0, "y": 0, "width": 390, "height": 844},
        "backgroundColor": [0.95, 0.95, 0.97, 1],
        "children": [
            {"id": "row", "frame": {"x": 16, "y": 120, "width": 358, "height": 64}, "backgroundColor": [1, 1, 1, 1],
             "cornerRadius": 12, "content": {"text": "Aurora"}},
        ],
    },
    "to": {
        "id": "detail",
        "frame": {"x": 0, "y": 0, "width": 390, "height": 844},
        "backgroundColor": [1, 1, 1, 1],
        "children": [
            {"id": "header", "frame": {"x": 0, "y": 0, "width": 390, "height": 300},
             "backgroundColor": [0.16, 0.47, 0.96, 1]},
        ],
    },
}


def render(host, animator, operation, scene, fps, params=None):
    """Starts the transition on the manual clock and ticks it to its end; returns (start result, frames, didEnd)."""
    started = host.transition_start(
        animator, operation, scene["from"], scene["to"], container=scene["container"], params=params,
        clock="manual", fps=fps, frames="full",
    )
    transition = started["transition"]
    frames = [host.next_notification(30, method="transition/frame", transition=transition).params]
    end = None
    while end is None:
        host.transition_tick(1 / fps, transition=transition)
        # tick replies after its notifications, so they are all queued now.
        for notification in host.drain_notifications(transition=transition):
            if notification.method == "transition/frame":
                frames.append(notification.params)
            elif notification.method == "transition/didEnd":
                end = notification.params
    return started, frames, end


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--animator", default="pull-down")
    parser.add_argument("--operation", default="present")
    parser.add_argument("--scene", help="a JSON file with container, from and to (default: a built-in scene)")
    parser.add_argument("--params", help="the animator's parameters as a JSON object")
    parser.add_argument("--fps", type=float, default=60)
    parser.add_argument("--host", help="the transition-host binary (default: $TRANSITION_HOST_BIN or PATH)")
    parser.add_argument("-o", "--output", help="write the JSON there (default: standard output)")
    args = parser.parse_args()

    scene = SCENE
    if args.scene:
        with open(args.scene, encoding="utf-8") as handle:
            scene = json.load(handle)
    params = json.loads(args.params) if args.params else None
    with TransitionHost(args.host, timeout=60) as host:
        started, frames, end = render(host, args.animator, args.operation, scene, args.fps, params)
    document = {
        "animator": args.animator,
        "operation": args.operation,
        "fps": args.fps,
        "duration": started["duration"],
        "frames": frames,
        "end": end,
    }
    text = json.dumps(document, separators=(",", ":"))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    print(
        f"{args.animator} {args.operation}: {len(frames)} frames over {started['duration']} s, "
        f"{'completed' if end['completed'] else 'cancelled'}",
        file=sys.stderr,
    )
    return 0 if end["completed"] else 1


if __name__ == "__main__":
    sys.exit(main())
