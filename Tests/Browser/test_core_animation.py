"""The HTML preview of two Core Animation animators written as UIKit code (TestPluginCoreAnimation), run by
`transition-host render` and read from the pixels of a headless-Chromium screenshot:

- "circular-reveal": the to view (blue) shows inside a circle growing about (100, 200) from radius 10 to the distance
  to the farthest corner, the from view (red) outside it;
- "shadow-push": the to view (blue) slides in from the right with a black shadow (opacity 0 → 0.5, radius 8, offset
  (−12, 0), along its bounds' rectangle inset by 16 → 0), which darkens the from view just left of its edge.

Both run 1 s with easeInEaseOut, rendered at 10 frames per second, so frame n is time n/10. The expected geometry is
the animators' formulas written out here.

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

RED, BLUE = [1, 0, 0, 1], [0, 0, 1, 1]
WIDTH, HEIGHT = CONTAINER
FPS = 10


def ease_in_out(x):
    """cubic-bezier(0.42, 0, 0.58, 1) at x: the curve parameter s with x(s) = x by bisection, then y(s)."""
    def coordinate(s, p1, p2):
        return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s ** 2 * p2 + s ** 3
    low, high = 0.0, 1.0
    for _ in range(100):
        mid = (low + high) / 2
        if coordinate(mid, 0.42, 0.58) < x:
            low = mid
        else:
            high = mid
    return coordinate((low + high) / 2, 0, 1)


def render(host, animator, work, browser, frame):
    """Runs `animator` on the scene (red from view, blue to view, the container's size) and screenshots frame n."""
    scene = {
        "container": {"width": WIDTH, "height": HEIGHT},
        "from": {"id": "home", "frame": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT}, "backgroundColor": RED},
        "to": {"id": "detail", "frame": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT}, "backgroundColor": BLUE},
    }
    scene_path = os.path.join(work, animator + ".json")
    with open(scene_path, "w") as handle:
        json.dump(scene, handle)
    html = os.path.join(work, animator + ".html")
    # The start-up auto-load skips libTestPlugin* names: a private folder holds the fixture under another name.
    plugins = os.path.join(work, "plugins")
    os.makedirs(plugins, exist_ok=True)
    shutil.copyfile(os.path.join(os.path.dirname(host), "libTestPluginCoreAnimation.so"),
                    os.path.join(plugins, "libCoreAnimationFixture.so"))
    subprocess.run(
        [host, "render", "--animator", "com.example.test.coreanimation/" + animator, "--scene", scene_path,
         "--fps", str(FPS), "--plugin-dir", plugins, "-q", "-o", html],
        check=True, timeout=120)
    return screenshot(browser, html, f"frame={frame}&bare=1&text=0", os.path.join(work, animator + ".png"),
                      os.path.join(work, "profile-" + animator))


class CoreAnimationInBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = chromium_binary()
        if cls.browser is None:
            raise unittest.SkipTest("chromium is not installed (make test-browser installs it)")
        cls.host = host_binary()
        if not os.path.isfile(os.path.join(os.path.dirname(cls.host), "libTestPluginCoreAnimation.so")):
            raise unittest.SkipTest("libTestPluginCoreAnimation.so is not built next to the host")
        cls.work = tempfile.mkdtemp(prefix="th-core-animation-")

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "work", None):
            shutil.rmtree(cls.work, ignore_errors=True)

    def pixel(self, image, x, y):
        return image.rows[y][x][:3]

    def assertColour(self, image, x, y, colour, what):
        pixel = self.pixel(image, x, y)
        expected = tuple(round(c * 255) for c in colour[:3])
        self.assertTrue(all(abs(p - e) <= 3 for p, e in zip(pixel, expected)),
                        f"{what}: pixel ({x}, {y}) is {pixel}, expected {expected}")

    def test_the_reveal_shows_the_to_view_inside_its_circle_only(self):
        frame = 5  # t = 0.5: easeInEaseOut is symmetric, so the radius is halfway
        cx, cy = 100, 200
        end = math.hypot(WIDTH - cx, HEIGHT - cy)
        r = 10 + (end - 10) * ease_in_out(frame / FPS)
        image = render(self.host, "circular-reveal", self.work, self.browser, frame)
        for angle in (0, math.pi / 2, math.pi / 4, 3 * math.pi / 4):
            for scale, colour, where in ((0.9, BLUE, "inside"), (1.1, RED, "outside")):
                x = round(cx + scale * r * math.cos(angle))
                y = round(cy + scale * r * math.sin(angle))
                if 0 <= x < WIDTH and 0 <= y < HEIGHT:
                    self.assertColour(image, x, y, colour, f"{where} the circle of radius {r:.1f}")
        self.assertColour(image, cx, cy, BLUE, "the circle's centre")
        self.assertColour(image, WIDTH - 5, HEIGHT - 5, RED, "the farthest corner, not reached yet")

    def test_the_pushed_view_casts_its_shadow_beside_its_edge(self):
        frame = 7
        p = ease_in_out(frame / FPS)
        edge = WIDTH * (1 - p)  # the to view's left edge
        opacity = 0.5 * p
        inset = 16 * (1 - p)
        shadow_left = edge + inset - 12  # the shadowPath's left side moved by the offset, before the blur
        self.assertGreater(edge - shadow_left, 6, "the frame chosen puts the shadow's shape beside the view")
        image = render(self.host, "shadow-push", self.work, self.browser, frame)
        y = HEIGHT // 2
        self.assertColour(image, math.ceil(edge) + 2, y, BLUE, "the pushed view")
        self.assertColour(image, round(shadow_left) - 30, y, RED, "the from view well left of the shadow")
        # Inside the shadow's shape, 2 pt from the view's edge: black at a good part of the shadow's opacity over
        # red (a blur of radius 8 keeps at least half of it this far inside the shape's edge).
        red, green, blue = self.pixel(image, math.floor(edge) - 2, y)
        self.assertLess(red, 255 * (1 - opacity / 2) + 3, f"shadow beside the view: {red, green, blue}")
        self.assertLess(green + blue, 10, "a black shadow over red stays red-only")


if __name__ == "__main__":
    unittest.main()
