"""Shared helpers for the tests that run the real host."""

import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
WAIT = 60.0  # a safety bound for calls that answer at once; no test measures time


def host_binary() -> str:
    """$TRANSITION_HOST_BIN, else the debug build of this checkout (make test builds it first)."""
    path = os.environ.get("TRANSITION_HOST_BIN") or os.path.join(ROOT, ".build", "debug", "transition-host")
    if not os.path.isfile(path):
        raise unittest.SkipTest(f"no transition-host at {path}: run `swift build` or set TRANSITION_HOST_BIN")
    return path


def minimal_plugin() -> str:
    """The Minimal test fixture (two small C animators, fade and slide), built beside the host."""
    return os.path.join(os.path.dirname(host_binary()), "libTestPluginMinimal.so")


def gestures_plugin() -> str:
    """The Gestures test fixture (UIKit interaction controllers with pan recognizers), built beside the host."""
    return os.path.join(os.path.dirname(host_binary()), "libTestPluginGestures.so")


def cubic_bezier(x1, y1, x2, y2):
    """CSS/Core Animation timing function: y at x, solving x(t) = x by bisection (independent of the host)."""

    def coordinate(t, p1, p2):
        return 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3

    def progress(x):
        low, high = 0.0, 1.0
        for _ in range(100):
            middle = (low + high) / 2
            if coordinate(middle, x1, x2) < x:
                low = middle
            else:
                high = middle
        return coordinate((low + high) / 2, y1, y2)

    return progress


EASE_IN_OUT = cubic_bezier(0.42, 0, 0.58, 1)

# Two small trees in a 300 × 600 container: the from screen, and the to screen with one child.
CONTAINER = {"width": 300, "height": 600}
FROM_TREE = {
    "id": "a",
    "frame": {"x": 0, "y": 0, "width": 300, "height": 600},
    "backgroundColor": [1, 1, 1, 1],
    "children": [{"id": "a-label", "frame": {"x": 20, "y": 40, "width": 260, "height": 30}, "content": "From"}],
}
TO_TREE = {
    "id": "b",
    "frame": {"x": 0, "y": 0, "width": 300, "height": 600},
    "backgroundColor": [0.2, 0.4, 0.9, 1],
    "children": [{"id": "b-box", "frame": {"x": 50, "y": 100, "width": 200, "height": 80}, "cornerRadius": 8}],
}


def view(frame, view_id):
    """The entry of `view_id` in a frame, or None."""
    for entry in frame["views"]:
        if entry["id"] == view_id:
            return entry
    return None
