"""The HTML preview draws layers where the frame says: a border inside the bounds, a shadow from a shadowPath and
one from the layer's own shape, a mask (a circle: the masked view shows only inside it), a shape layer (a filled
triangle), read from the pixels of a headless-Chromium screenshot.

The frame is written here by hand (`render --frames` draws recorded frames), so every expected pixel follows from
the numbers below: boxes are placed by pure translations, the shadow radius is 0 (no blur), colours are solid.

Run: TRANSITION_HOST_BIN=.build/debug/transition-host python3 -m unittest discover -s Tests/Browser -v
"""

import json
import math
import os
import shutil
import subprocess
import tempfile
import unittest

from test_preview import CONTAINER, chromium_binary, host_binary, screenshot

IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]


def entry(view_id, parent, x, y, width, height, world=None, **members):
    """A full frame entry of a `width × height` node at (x, y) in its parent; `world` its world origin."""
    wx, wy = world if world is not None else (x, y)
    base = {
        "id": view_id, "parent": parent,
        "frame": {"x": x, "y": y, "width": width, "height": height},
        "bounds": {"x": 0, "y": 0, "width": width, "height": height},
        "position": {"x": x + width / 2, "y": y + height / 2}, "anchorPoint": {"x": 0.5, "y": 0.5},
        "transform": IDENTITY, "worldTransform": IDENTITY[:12] + [wx, wy, 0, 1],
        "boundingBox": {"x": wx, "y": wy, "width": width, "height": height},
        "alpha": 1, "opacity": 1, "hidden": False, "zIndex": 0, "backgroundColor": None, "cornerRadius": 0,
        "clipsToBounds": False,
    }
    base.update(members)
    return base


def circle(cx, cy, r):
    """A circle as Core Graphics stores it: a move and four cubic quarters with handles k·r, k = 4/3·(√2 − 1)."""
    k = 4 / 3 * (math.sqrt(2) - 1) * r
    return [
        ["M", cx + r, cy],
        ["C", cx + r, cy + k, cx + k, cy + r, cx, cy + r],
        ["C", cx - k, cy + r, cx - r, cy + k, cx - r, cy],
        ["C", cx - r, cy - k, cx - k, cy - r, cx, cy - r],
        ["C", cx + k, cy - r, cx + r, cy - k, cx + r, cy],
        ["Z"],
    ]


RED, BLUE, BLACK, GREEN, MAGENTA, YELLOW, WHITE = (
    [1, 0, 0, 1], [0, 0, 1, 1], [0, 0, 0, 1], [0, 1, 0, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 1])

VIEWS = [
    entry("container", None, 0, 0, *CONTAINER, backgroundColor=WHITE),
    # A red card (40…240 × 60…180) with a 10 pt blue border and a hard black shadow of its shadowPath moved by
    # (20, 30): the shadow shows at x 240…260 and y 180…210.
    entry("card", "container", 40, 60, 200, 120, backgroundColor=RED, borderWidth=10, borderColor=BLUE,
          shadowOpacity=1, shadowRadius=0, shadowOffset={"width": 20, "height": 30},
          shadowPath=[["M", 0, 0], ["L", 200, 0], ["L", 200, 120], ["L", 0, 120], ["Z"]]),
    # A yellow square (260…340 × 60…140) whose own shape casts the shadow, moved by (10, 10).
    entry("plain", "container", 260, 60, 80, 80, backgroundColor=YELLOW, shadowOpacity=1, shadowRadius=0,
          shadowOffset={"width": 10, "height": 10}),
    # A green square (40…240 × 400…600) masked by a circle of radius 100 about its centre (140, 500).
    entry("masked", "container", 40, 400, 200, 200, backgroundColor=GREEN, mask="circle"),
    entry("circle", "masked", 0, 0, 200, 200, world=(40, 400), kind="shape", maskOf="masked",
          path=circle(100, 100, 100)),
    # A shape layer (260…360 × 400…500) filling the triangle (0, 0), (100, 0), (0, 100) in magenta.
    entry("tri", "container", 260, 400, 100, 100, kind="shape", fillColor=MAGENTA,
          path=[["M", 0, 0], ["L", 100, 0], ["L", 0, 100], ["Z"]]),
]


class LayersInBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = chromium_binary()
        if cls.browser is None:
            raise unittest.SkipTest("chromium is not installed (make test-browser installs it)")
        cls.host = host_binary()
        cls.work = tempfile.mkdtemp(prefix="th-layers-")
        for index, view in enumerate(VIEWS):
            view["zIndex"] = index
        frame = {"jsonrpc": "2.0", "method": "transition/frame", "params": {
            "transition": "t1", "seq": 0, "time": 0, "percent": 0, "phase": "running", "views": VIEWS}}
        frames = os.path.join(cls.work, "layers.jsonl")
        with open(frames, "w") as handle:
            handle.write(json.dumps(frame) + "\n")
        html = os.path.join(cls.work, "layers.html")
        subprocess.run([cls.host, "render", "--frames", frames, "-q", "-o", html], check=True, timeout=120)
        cls.image = screenshot(
            cls.browser, html, "frame=0&bare=1&text=0", os.path.join(cls.work, "layers.png"),
            os.path.join(cls.work, "profile"))

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "work", None):
            shutil.rmtree(cls.work, ignore_errors=True)

    def assertColour(self, x, y, colour, what):
        pixel = self.image.rows[y][x][:3]
        expected = tuple(round(c * 255) for c in colour[:3])
        self.assertTrue(all(abs(p - e) <= 3 for p, e in zip(pixel, expected)),
                        f"{what}: pixel ({x}, {y}) is {pixel}, expected {expected}")

    def test_a_border_is_drawn_inside_the_bounds(self):
        for x, y in ((44, 120), (235, 120), (140, 64), (140, 175)):  # within 10 pt of each edge
            self.assertColour(x, y, BLUE, "border")
        self.assertColour(140, 120, RED, "the card inside its border")
        self.assertColour(36, 120, WHITE, "left of the card")

    def test_a_shadow_follows_its_path_and_offset(self):
        self.assertColour(250, 195, BLACK, "shadowPath's shadow right of and below the card")
        self.assertColour(50, 195, WHITE, "left of the shadow (it starts at x = 60)")
        self.assertColour(265, 195, WHITE, "right of the shadow (it ends at x = 260)")
        self.assertColour(250, 215, WHITE, "below the shadow (it ends at y = 210)")

    def test_a_shadow_of_the_layers_own_shape(self):
        self.assertColour(345, 130, BLACK, "the square's shadow on its right")
        self.assertColour(300, 100, YELLOW, "the square over its shadow")
        self.assertColour(265, 145, WHITE, "left of the shadow (it starts at x = 270)")

    def test_a_mask_shows_the_view_only_inside_the_circle(self):
        self.assertColour(140, 500, GREEN, "the circle's centre")
        self.assertColour(140, 410, GREEN, "inside the top of the circle")
        for x, y in ((45, 405), (235, 405), (45, 595), (235, 595)):  # the square's corners, outside the circle
            self.assertColour(x, y, WHITE, "a corner masked away")

    def test_a_shape_layer_fills_its_path(self):
        self.assertColour(270, 410, MAGENTA, "inside the triangle")
        self.assertColour(300, 420, MAGENTA, "inside the triangle")
        self.assertColour(350, 490, WHITE, "beyond the triangle's hypotenuse")


if __name__ == "__main__":
    unittest.main()
