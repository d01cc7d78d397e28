"""The HTML preview of the Core Animation animators written as UIKit code (Tests/Fixtures/LayersUIKit: "page-turn",
"card"), run through the built binary (`render --plugin-dir`), in headless Chromium: pixels sampled where formulas
written here put the geometry.

The scenes are solid colours so that every pixel's expected colour follows from the numbers below. Both animators
are linear over 1 s; `--fps 10` makes frame n the state at t = n / 10 (checked against each frame's `time`).

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

WIDTH, HEIGHT = CONTAINER
PAGE, UNDER = (0.8, 0.8, 0.8), (0, 0.6, 0)
BELOW, CARD, RED, BLUE = (1, 1, 1), (1, 1, 0), (1, 0, 0), (0, 0, 1)
# The card: 300 × 300 at (45, 272), masked by the oval of its bounds (a circle of radius 150 about its centre).
CARD_X, CARD_Y, CARD_SIDE = 45, 272, 300
CENTRE = (CARD_X + CARD_SIDE / 2, CARD_Y + CARD_SIDE / 2)


def scene(from_view, to_view):
    return {"container": {"width": WIDTH, "height": HEIGHT}, "from": from_view, "to": to_view}


def solid(view_id, colour, x=0, y=0, width=WIDTH, height=HEIGHT):
    return {"id": view_id, "frame": {"x": x, "y": y, "width": width, "height": height},
            "backgroundColor": list(colour) + [1]}


def plugin_library():
    folder = os.path.dirname(host_binary())
    path = os.path.join(folder, "libTestPluginLayersUIKit.so")
    if not os.path.isfile(path):
        raise unittest.SkipTest(f"no fixture plugin at {path}; run swift build")
    return path


def page_edge(t):
    """Where the turning page ends on the row through the container's centre at time t.

    The page turns about its left edge (x = 0) by θ = π/2·t about y toward the viewer: its point x goes to
    (x cos θ, z = x sin θ). The container's sublayerTransform (m34 = −1/500, about its centre cx) divides by
    w = 1 − z/500: screen x = cx + (x cos θ − cx) / w. The edge is x = WIDTH.
    """
    return project(WIDTH, t)


def project(x, t):
    theta = math.pi / 2 * t
    cx = WIDTH / 2
    return cx + (x * math.cos(theta) - cx) / (1 - x * math.sin(theta) / 500)


def unproject(screen_x, t):
    """The page's x drawn at `screen_x` (the inverse of `project`): x = sx / (cos θ + sin θ·(sx − cx)/500)."""
    theta = math.pi / 2 * t
    return screen_x / (math.cos(theta) + math.sin(theta) * (screen_x - WIDTH / 2) / 500)


class LayerAnimatorsInBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = chromium_binary()
        if cls.browser is None:
            raise unittest.SkipTest("chromium is not installed (make test-browser installs it)")
        cls.host = host_binary()
        library = plugin_library()
        cls.work = tempfile.mkdtemp(prefix="th-layer-animators-")
        cls.plugins = os.path.join(cls.work, "plugins")
        os.mkdir(cls.plugins)
        shutil.copy(library, os.path.join(cls.plugins, "libLayersUIKit.so"))
        cls.page = cls.render("page-turn", "push", scene(solid("page", PAGE), solid("under", UNDER)))
        cls.card = cls.render(
            "card", "present", scene(solid("below", BELOW), solid("card", CARD, CARD_X, CARD_Y, CARD_SIDE, CARD_SIDE)))
        cls.shots = {}

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "work", None):
            shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def render(cls, animator, operation, views):
        path = os.path.join(cls.work, animator + ".json")
        with open(path, "w") as handle:
            json.dump(views, handle)
        arguments = ["render", "--plugin-dir", cls.plugins, "--animator", animator, "--operation", operation,
                     "--scene", path, "--fps", "10", "-q"]
        html = os.path.join(cls.work, animator + ".html")
        subprocess.run([cls.host, *arguments, "-o", html], check=True, timeout=120)
        lines = subprocess.run([cls.host, *arguments, "--format", "jsonl"], check=True, timeout=120,
                               capture_output=True, text=True).stdout.splitlines()
        frames = [json.loads(line)["params"] for line in lines if '"transition/frame"' in line]
        return html, frames

    def shot(self, rendered, index):
        html, frames = rendered
        key = (html, index)
        if key not in self.shots:
            name = f"{os.path.basename(html)}-{index}"
            self.shots[key] = screenshot(self.browser, html, f"frame={index}&bare=1&text=0",
                                         os.path.join(self.work, name + ".png"), os.path.join(self.work, "profile"))
        return self.shots[key], frames[index]

    def assertPixel(self, image, x, y, colour, what, tolerance=4):
        pixel = image.rows[y][x][:3]
        expected = tuple(round(c * 255) for c in colour)
        self.assertTrue(all(abs(p - e) <= tolerance for p, e in zip(pixel, expected)),
                        f"{what}: pixel ({x}, {y}) is {pixel}, expected {expected}")

    # The page turn.

    def test_the_turning_page_ends_where_the_perspective_puts_its_edge(self):
        row = HEIGHT // 2  # the row through the perspective's centre: no vertical foreshortening to account for
        for index in (5, 7):
            image, frame = self.shot(self.page, index)
            t = frame["time"]
            self.assertAlmostEqual(t, index / 10, places=9)
            edge = page_edge(t)  # t = 0.5: ≈ 375.1; t = 0.7: ≈ 154.9
            self.assertTrue(0 < edge < WIDTH - 8, f"the edge at {edge} is off the screen")
            self.assertPixel(image, math.ceil(edge) + 3, row, UNDER, f"t = {t}: the revealed view beyond the edge")
            # Just inside the edge the page shows, darkened by the shadow near its dark end (alpha 0.5 · x/W · t).
            x = math.floor(edge) - 4
            darkness = 0.5 * unproject(x + 0.5, t) / WIDTH * t
            self.assertPixel(image, x, row, [c * (1 - darkness) for c in PAGE],
                             f"t = {t}: the page just inside its edge", tolerance=6)

    def test_the_gradient_shadow_darkens_toward_its_dark_end(self):
        image, frame = self.shot(self.page, 5)
        t = frame["time"]
        shadow = next(v for v in frame["views"] if v.get("kind") == "gradient")
        self.assertAlmostEqual(shadow["opacity"], t, places=6)  # opacity 0 → 1, linear
        row = HEIGHT // 2
        previous = None
        for screen_x in (40, 120, 200, 280, 350):
            # The page's point under the pixel's centre; the gradient runs black α 0 → 0.5 along the page's x.
            fraction = unproject(screen_x + 0.5, t) / WIDTH
            self.assertTrue(0 < fraction < 1)
            expected = [c * (1 - 0.5 * fraction * t) for c in PAGE]
            self.assertPixel(image, screen_x, row, expected, f"the page at {fraction:.3f} of its width", tolerance=4)
            grey = image.rows[row][screen_x][0]
            if previous is not None:
                self.assertLess(grey, previous, f"the shadow gets darker toward its dark end (x = {screen_x})")
            previous = grey

    # The card: at its start (t = 0: border red, square corners, no shadow) and its end (t = 1: border blue,
    # cornerRadius 16, shadowOpacity 0.4), where every way of animating borderColor agrees.

    def card_states(self):
        first = self.shot(self.card, 0)
        last = self.shot(self.card, len(self.card[1]) - 1)
        self.assertEqual(first[1]["time"], 0)
        self.assertEqual(last[1]["time"], 1)
        return ((first[0], RED, "start"), (last[0], BLUE, "end"))

    def test_the_border_is_a_band_at_the_cards_edge_above_its_content(self):
        cy = round(CENTRE[1])
        for image, border, when in self.card_states():
            # borderWidth 2: x 45…47 on the left edge, 343…345 on the right, inside the oval mask there.
            self.assertPixel(image, CARD_X + 1, cy, border, f"{when}: the left border band")
            self.assertPixel(image, CARD_X + CARD_SIDE - 2, cy, border, f"{when}: the right border band")
            self.assertPixel(image, CARD_X + 6, cy, CARD, f"{when}: the card inside its border")
            self.assertPixel(image, CARD_X - 4, cy, BELOW, f"{when}: left of the card")

    def test_the_oval_mask_cuts_the_corners_the_shadow_and_the_border(self):
        # The mask is a view whose oval is a sublayer: the card shows only inside the circle of radius 150.
        cx, cy = CENTRE
        d = 1 / math.sqrt(2)
        for image, border, when in self.card_states():
            for radius, colour, what in ((140, CARD, "just inside the circle"), (160, BELOW, "just outside it")):
                x, y = round(cx + radius * d), round(cy + radius * d)  # toward the bottom-right corner
                self.assertPixel(image, x, y, colour, f"{when}: {what}")
            # The square's corner (inside the bounds, far outside the circle): masked away, border included.
            self.assertPixel(image, CARD_X + 1, CARD_Y + 1, BELOW, f"{when}: the bounds' corner is masked")
            self.assertPixel(image, CARD_X + CARD_SIDE - 2, CARD_Y + CARD_SIDE - 2, BELOW,
                             f"{when}: the bottom-right corner is masked")
        # At the end the shadow (shadowPath: the bounds rounded by 16, offset 4 down, radius 10, opacity 0.4) lies
        # below and around the card, outside the circle: the mask covers the shadow too (Protocol.md, step 6).
        image = self.card_states()[1][0]
        for x, y in ((round(cx), CARD_Y + CARD_SIDE + 3), (CARD_X + CARD_SIDE + 3, round(cy)),
                     (CARD_X + CARD_SIDE - 3, CARD_Y + CARD_SIDE + 3)):
            self.assertPixel(image, x, y, BELOW, "the shadow outside the mask is not drawn", tolerance=2)


if __name__ == "__main__":
    unittest.main()
