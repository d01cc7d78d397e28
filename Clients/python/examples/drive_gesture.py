#!/usr/bin/env python3
"""Drive an interactive transition from a list of gesture samples, then release it with the finger's velocity.

Each sample is (seconds, finger y in points). The drag distance over the container's height is the transition's
percent (a pull-down follows the finger); the release velocity is the percent's rate over the last samples, in
1/s, and the host's release rule picks finish or cancel (> 0.25/s finishes, < −0.25/s cancels, otherwise the
nearer end). The transition runs on the manual clock: this script moves time.

    TRANSITION_HOST_BIN=.build/debug/transition-host python3 Clients/python/examples/drive_gesture.py
    ... drive_gesture.py --samples '[[0, 100], [0.05, 180], [0.1, 230], [0.15, 240]]'   # slows down, then?
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from transition_host_client import TransitionHost  # noqa: E402
from render_json import SCENE  # noqa: E402

# A quick downward flick: 0 → 420 pt in 0.25 s, still speeding up when the finger lifts.
FLICK = [[0.0, 80], [0.05, 110], [0.1, 160], [0.15, 230], [0.2, 320], [0.25, 420]]


def percents(samples, height):
    start_y = samples[0][1]
    return [(time, (y - start_y) / height) for time, y in samples]


def release_velocity(points, window=2):
    """d(percent)/dt over the last `window` intervals (a finger's velocity estimate, as UIKit's pan recognizer
    gives one)."""
    if len(points) < 2:
        return 0.0
    (t0, p0), (t1, p1) = points[max(0, len(points) - 1 - window)], points[-1]
    return (p1 - p0) / (t1 - t0) if t1 > t0 else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--animator", default="pull-down")
    parser.add_argument("--operation", default="present")
    parser.add_argument("--samples", help="JSON list of [seconds, y] (default: a downward flick)")
    parser.add_argument("--fps", type=float, default=60)
    parser.add_argument("--host", help="the transition-host binary (default: $TRANSITION_HOST_BIN or PATH)")
    args = parser.parse_args()

    samples = json.loads(args.samples) if args.samples else FLICK
    if len(samples) < 2 or any(b[0] <= a[0] for a, b in zip(samples, samples[1:])):
        parser.error("--samples needs at least two samples with increasing times")
    points = percents(samples, SCENE["container"]["height"])
    with TransitionHost(args.host, timeout=60) as host:
        started = host.transition_start(
            args.animator, args.operation, SCENE["from"], SCENE["to"], container=SCENE["container"],
            interactive=True, clock="manual", fps=args.fps,
        )
        transition = started["transition"]
        host.next_notification(30, method="transition/frame", transition=transition)
        for time, percent in points:
            applied = host.transition_update(transition, percent)["percent"]
            frame = host.next_notification(30, method="transition/frame", transition=transition).params
            print(f"t={time:5.3f} s  finger → {percent:6.3f}  host percent {applied:6.3f}  phase {frame['phase']}")
        velocity = release_velocity(points)
        decision = host.transition_release(transition, velocity)["decision"]
        print(f"release at {points[-1][1]:.3f} with velocity {velocity:.3f}/s → {decision}")
        end = None
        ticks = 0
        while end is None:
            host.transition_tick(1 / args.fps, transition=transition)
            ticks += 1
            for notification in host.drain_notifications(transition=transition):
                if notification.method == "transition/didEnd":
                    end = notification.params
    outcome = "completed" if end["completed"] else "cancelled"
    print(f"{outcome} after {ticks} more frames ({ticks / args.fps:.3f} s)")
    expected = "completed" if decision == "finish" else "cancelled"
    return 0 if outcome == expected else 1


if __name__ == "__main__":
    sys.exit(main())
