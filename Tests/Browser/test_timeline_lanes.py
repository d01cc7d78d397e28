"""The preview's timeline lanes, onion skin, slow motion and selection, in headless Chromium driven over the DevTools
protocol (cdp.py): lanes for a recorded transition whose frames and timeline are written here by hand (so every
expected pixel follows from the numbers below), and for a built-in animator rendered through the service.

Layout rule the expectations use (docs/render.md, "The timeline"): every lane's track spans the transition's time
0 … span, span = the largest of the timeline's `duration`, every animation's `end` (and `begin`), every tail's
`from` and `to`, and every frame's `time`; a bar runs from `begin` to `end`, a tail from min(from, to) to
max(from, to); the playhead stands at the shown frame's `time`.

Run: TRANSITION_HOST_BIN=.build/debug/transition-host python3 -m unittest discover -s Tests/Browser -v
"""

import json
import math
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from cdp import Browser
from test_layers import entry
from test_preview import chromium_binary, host_binary, screenshot

FPS = 30
WHITE, RED, BLUE = [1, 1, 1, 1], [1, 0, 0, 1], [0, 0, 1, 1]
STAGE = (390, 844)


def box_x(time):
    """The red box's x: 20 → 320 linearly over 0 … 1 s."""
    return 20 + 300 * min(max(time, 0), 1)


def fader_alpha(time):
    """The blue fader's alpha: steps(4, end) from 1 to 0.2 between 0.25 and 0.75 s."""
    fraction = min(max((time - 0.25) / 0.5, 0), 1)
    progress = min(math.floor(fraction * 4), 4) / 4
    return 1 - 0.8 * progress


def frame_views(time):
    x = box_x(time)
    views = [
        entry("root", None, 0, 0, *STAGE, backgroundColor=WHITE),
        entry("box", "root", x, 100, 40, 40, backgroundColor=RED, position={"x": x + 20, "y": 120}),
        entry("fader", "root", 40, 400, 80, 80, backgroundColor=BLUE),
    ]
    alpha = fader_alpha(time)
    views[2].update(alpha=alpha, opacity=alpha)
    for index, view in enumerate(views):
        view["zIndex"] = index
    return views


# Spring parameters of the bounds bar (ζ = 10 / (2·√(1·200)) ≈ 0.354: it overshoots).
SPRING = {"mass": 1, "stiffness": 200, "damping": 10, "initialVelocity": 0, "dampingRatio": 10 / (2 * math.sqrt(200)),
          "settlingDuration": 1.5}

TIMELINE = {
    "transition": "t1", "time": 1.0, "duration": 1.0,
    "animations": [
        {"index": 0, "target": "box", "kind": "view", "property": "center", "from": [40, 120], "to": [340, 120],
         "begin": 0, "duration": 1, "end": 1, "timing": {"curve": "linear"},
         "source": {"kind": "block", "block": 0, "parent": None, "depth": 0, "delay": 0, "completion": True},
         "state": "finished"},
        {"index": 1, "target": "fader", "kind": "view", "property": "alpha", "from": 1, "to": 0.2,
         "begin": 0.25, "duration": 0.5, "end": 0.75, "timing": {"curve": {"steps": 4, "position": "end"}},
         "source": {"kind": "block", "block": 1, "parent": 0, "depth": 1, "delay": 0.25, "completion": False},
         "state": "finished"},
        {"index": 2, "target": "box", "kind": "view", "property": "bounds",
         "from": {"x": 0, "y": 0, "width": 40, "height": 40}, "to": {"x": 0, "y": 0, "width": 40, "height": 40},
         "begin": 0.1, "duration": 0.6, "end": 0.7, "timing": {"spring": SPRING},
         "source": {"kind": "springBlock", "block": 2, "parent": None, "depth": 0, "delay": 0.1, "completion": False},
         "state": "finished"},
        {"index": 3, "target": "fader", "kind": "view", "property": "backgroundColor", "from": BLUE, "to": RED,
         "begin": 0, "duration": 0.8, "end": 0.8,
         "timing": {"keyframes": {"keyTimes": [0, 0.3, 1], "values": [BLUE, [0, 1, 0, 1], RED],
                                  "calculationMode": "linear"}},
         "source": {"kind": "keyframeBlock", "block": 3, "parent": None, "depth": 0, "delay": 0, "completion": False},
         "state": "finished"},
        # An explicit CABasicAnimation: two repeats of 0.2 s there and back (0.2 + 2 · 2 · 0.2 = 1.0).
        {"index": 4, "target": "fader", "kind": "view", "property": "transform.scale", "from": 1, "to": 1.5,
         "begin": 0.2, "duration": 0.2, "end": 1.0, "timing": {"curve": "easeIn"}, "repeatCount": 2,
         "autoreverses": True,
         "source": {"kind": "explicit", "block": None, "parent": None, "depth": 0, "delay": 0, "completion": False,
                    "key": "pulse"},
         "state": "finished"},
    ],
    "tails": [
        {"operation": "finish", "cause": "release", "velocity": 1.0, "from": 0.4, "to": 1.2, "startedAt": 0.5,
         "length": 0.3, "timing": {"curve": "easeOut"}},
    ],
}


def span_of(timeline, frames):
    """The lanes' axis length (the module's layout rule)."""
    values = [timeline["duration"]]
    for animation in timeline["animations"]:
        values += [animation["begin"], animation["end"]]
    for tail in timeline["tails"]:
        values += [tail["from"], tail["to"]]
    values += [frame["time"] for frame in frames]
    return max(values)


def bezier(s, p1, p2):
    return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3


def ease_in(progress):
    """Core Animation's easeIn, cubic-bezier(0.42, 0, 1, 1): x(s) = progress solved by bisection, then y(s)."""
    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if bezier(mid, 0.42, 1) < progress:
            low = mid
        else:
            high = mid
    return bezier((low + high) / 2, 0, 1)


def spring_progress(t, spring):
    """1 − x(t) of an under-damped spring m x'' + c x' + k x = 0, x(0) = 1, x'(0) = −v0 (written out here)."""
    m, k, c, v0 = spring["mass"], spring["stiffness"], spring["damping"], spring["initialVelocity"]
    w0 = math.sqrt(k / m)
    zeta = c / (2 * math.sqrt(k * m))
    wd = w0 * math.sqrt(1 - zeta * zeta)
    x = math.exp(-zeta * w0 * t) * (math.cos(wd * t) + (zeta * w0 - v0) / wd * math.sin(wd * t))
    return 1 - x


def colour_near(pixel, colour, tolerance=40):
    return all(abs(pixel[i] - colour[i]) <= tolerance for i in range(3))


def hex_colour(css):
    """(r, g, b) of a computed CSS colour `rgb(r, g, b)`."""
    inside = css[css.index("(") + 1: css.index(")")]
    return tuple(int(float(part)) for part in inside.split(",")[:3])


class BrowserCase(unittest.TestCase):
    """A class of tests sharing one browser and one scratch folder (`prepare` fills it before the browser starts)."""

    @classmethod
    def setUpClass(cls):
        cls.browser_binary = chromium_binary()
        if cls.browser_binary is None:
            raise unittest.SkipTest("chromium is not installed (make test-browser installs it)")
        cls.host = host_binary()
        cls.work = tempfile.mkdtemp(prefix="th-lanes-")
        cls.prepare()
        cls.browser = Browser(cls.browser_binary, os.path.join(cls.work, "profile"))

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "browser", None):
            cls.browser.close()
        if getattr(cls, "work", None):
            shutil.rmtree(cls.work, ignore_errors=True)


class TimelineLanesTests(BrowserCase):
    @classmethod
    def prepare(cls):
        cls.frames = []
        for index in range(FPS + 1):
            t = index / FPS
            cls.frames.append({"transition": "t1", "seq": index, "time": t, "percent": t, "phase": "running",
                               "views": frame_views(t)})
        recording = os.path.join(cls.work, "lanes.jsonl")
        with open(recording, "w") as handle:
            for frame in cls.frames:
                handle.write(json.dumps({"jsonrpc": "2.0", "method": "transition/frame", "params": frame}) + "\n")
            handle.write(json.dumps({"jsonrpc": "2.0", "method": "transition/timelineChanged", "params": TIMELINE})
                         + "\n")
        cls.html = os.path.join(cls.work, "lanes.html")
        subprocess.run([cls.host, "render", "--frames", recording, "--fps", str(FPS), "-q", "-o", cls.html],
                       check=True, timeout=120)
        cls.span = span_of(TIMELINE, cls.frames)

    def open(self, fragment="t=0&text=0"):
        self.browser.open("file://" + self.html + "#" + fragment)
        self.browser.evaluate("window.transitionPreview.pause()")

    def track(self):
        """(left, width) of the lanes' track column, in CSS pixels."""
        left, _, right, _ = self.browser.rect("#th-axis")
        return left, right - left

    def x_of(self, tau):
        left, width = self.track()
        return left + tau / self.span * width

    def rows(self):
        return self.browser.evaluate(
            "Array.from(document.querySelectorAll('.th-lane')).map(r => [r.dataset.target, r.dataset.property,"
            " r.querySelectorAll('.th-bar').length, r.className])")

    def bar_rect(self, index):
        return self.browser.rect(f'.th-bar[data-index="{index}"]')

    def bar_colour(self, index):
        return hex_colour(self.browser.evaluate(
            f"getComputedStyle(document.querySelector('.th-bar[data-index=\"{index}\"]')).backgroundColor"))

    def animation(self, index):
        return next(a for a in TIMELINE["animations"] if a["index"] == index)

    def test_one_lane_per_animated_view_and_property(self):
        self.open()
        expected = []
        for animation in TIMELINE["animations"]:
            pair = (animation["target"], animation["property"])
            if pair not in expected:
                expected.append(pair)
        # A target's rows together, targets in the order they were first animated.
        expected.sort(key=lambda pair: [a["target"] for a in TIMELINE["animations"]].index(pair[0]))
        rows = self.rows()
        self.assertEqual([(r[0], r[1]) for r in rows], expected)
        for target, prop, bars, _ in rows:
            count = sum(1 for a in TIMELINE["animations"] if (a["target"], a["property"]) == (target, prop))
            self.assertEqual(bars, count, (target, prop))
        tails = self.browser.evaluate("Array.from(document.querySelectorAll('.th-tail')).map(r => r.innerText)")
        self.assertEqual(len(tails), len(TIMELINE["tails"]))
        self.assertIn("finish", tails[0])
        self.assertIn("release", tails[0])

    def test_a_bar_spans_its_begin_and_end_within_a_pixel(self):
        self.open("t=0.5&text=0")  # the playhead at 0.5 s crosses no bar's edge
        image = self.browser.screenshot()
        checked = 0
        for animation in TIMELINE["animations"]:
            _, top, _, _ = self.bar_rect(animation["index"])
            colour = self.bar_colour(animation["index"])
            y = int(top) + 1
            columns = [x for x in range(image.width) if colour_near(image.pixel(x, y), colour, 12)]
            self.assertTrue(columns, f"no pixel of bar {animation['index']}'s colour {colour} on row {y}")
            left, right = self.x_of(animation["begin"]), self.x_of(animation["end"])
            self.assertLessEqual(abs(columns[0] - left), 1, (animation["index"], columns[0], left))
            self.assertLessEqual(abs(columns[-1] + 1 - right), 1, (animation["index"], columns[-1] + 1, right))
            # One solid run, but where the playhead (at 0.5 s, 2 px wide) crosses it.
            playhead = self.x_of(0.5)
            gaps = [x for x in range(columns[0], columns[-1]) if x not in columns and abs(x + 0.5 - playhead) > 2]
            self.assertEqual(gaps, [], f"bar {animation['index']} has holes")
            checked += 1
        # The tail runs over the transition's time it moved through.
        tail = TIMELINE["tails"][0]
        _, top, _, _ = self.browser.rect(".th-tail .th-bar")
        colour = hex_colour(self.browser.evaluate("getComputedStyle(document.querySelector('.th-tail .th-bar')).backgroundColor"))
        columns = [x for x in range(image.width) if colour_near(image.pixel(x, int(top) + 1), colour, 12)]
        self.assertLessEqual(abs(columns[0] - self.x_of(min(tail["from"], tail["to"]))), 1)
        self.assertLessEqual(abs(columns[-1] + 1 - self.x_of(max(tail["from"], tail["to"]))), 1)
        self.assertEqual(checked, len(TIMELINE["animations"]))

    def curve_y(self, index, progress, low=0.0, high=1.0):
        """Where a progress value is drawn inside bar `index`: the curve area is the bar less 3 px at top and bottom,
        progress `high` at its top and `low` at its bottom."""
        _, top, _, bottom = self.bar_rect(index)
        inner_top, inner_height = top + 3, bottom - top - 6
        return inner_top + (high - progress) / (high - low) * inner_height

    def assertCurveAt(self, image, index, fraction, progress, low=0.0, high=1.0):
        animation = self.animation(index)
        x = int(self.x_of(animation["begin"] + fraction * animation["duration"]))
        y = self.curve_y(index, progress, low, high)
        near = [image.pixel(x, yy) for yy in range(int(y) - 2, int(y) + 3)]
        self.assertTrue(any(min(p[:3]) >= 170 for p in near),
                        f"bar {index}: no curve pixel at x {x}, y {y:.1f} (progress {progress:.3f}): {near}")

    def test_the_curve_is_drawn_inside_its_bar(self):
        self.open("t=0.5&text=0")
        image = self.browser.screenshot()
        for fraction in (0.2, 0.7, 0.9):  # linear: progress = fraction
            self.assertCurveAt(image, 0, fraction, fraction)
        for fraction, progress in ((0.1, 0), (0.375, 0.25), (0.62, 0.5), (0.9, 0.75)):  # steps(4, end)
            self.assertCurveAt(image, 1, fraction, progress)
        # The spring overshoots: the bar shows 0 … the highest progress reached.
        spring_duration = self.animation(2)["duration"]
        high = max(spring_progress(spring_duration * k / 4000, SPRING) for k in range(4001))
        self.assertGreater(high, 1.2)
        for fraction in (0.15, 0.3, 0.5, 0.8):
            self.assertCurveAt(image, 2, fraction, spring_progress(fraction * spring_duration, SPRING), 0, high)

    def test_repeats_and_autoreverses_draw_every_iteration(self):
        self.open()
        rows = self.browser.evaluate("window.transitionPreview.data.timeline.rows")
        row = next(r for r in rows if (r["target"], r["property"]) == ("fader", "transform.scale"))
        (bar,) = row["bars"]
        animation = self.animation(4)
        begin, end, duration = animation["begin"], animation["end"], animation["duration"]
        points = list(zip(bar["c"][0::2], bar["c"][1::2]))
        self.assertGreater(len(points), 100)
        checked = 0
        for x, y in points:
            local = x * (end - begin)
            k, remainder = divmod(local / duration, 1)
            if min(remainder, 1 - remainder) < 1e-3:
                continue  # an iteration's boundary: either side's value is right
            expected = ease_in(remainder) if k % 2 == 0 else ease_in(1 - remainder)  # odd iterations run back
            self.assertAlmostEqual(y, expected, delta=2e-3, msg=f"at {begin + local:.4f} s")
            checked += 1
        self.assertGreater(checked, 100)
        self.assertEqual(sorted({int(x * (end - begin) / duration + 1e-9) for x, _ in points if x < 1}), [0, 1, 2, 3])

    def test_keyframe_ticks_at_the_key_times(self):
        self.open("t=0.5&text=0")
        image = self.browser.screenshot()
        animation = self.animation(3)
        _, top, _, _ = self.bar_rect(3)
        y = int(top) + 5  # near the curve area's top, above the curve (which is at 0.5 there)
        for key_time in animation["timing"]["keyframes"]["keyTimes"][1:-1]:
            x = self.x_of(animation["begin"] + key_time * animation["duration"])
            ticks = [xx for xx in range(int(x) - 3, int(x) + 4) if colour_near(image.pixel(xx, y), (255, 224, 138), 30)]
            self.assertTrue(ticks, f"no tick near x {x:.1f}: {[image.pixel(xx, y) for xx in range(int(x) - 3, int(x) + 4)]}")
            self.assertLessEqual(min(abs(xx + 0.5 - x) for xx in ticks), 1.5)

    def playhead_x(self, image, y):
        columns = [x for x in range(image.width) if colour_near(image.pixel(x, y), (255, 59, 48), 40)]
        self.assertTrue(columns, f"no playhead on row {y}")
        return (columns[0] + columns[-1] + 1) / 2

    def test_the_playhead_follows_the_scrubber(self):
        self.open("t=0&text=0")
        left, top, right, bottom = self.browser.rect("#th-scrubber")
        _, bar_top, _, _ = self.bar_rect(0)
        y = int(bar_top) + 1
        positions = []
        for fraction in (0.3, 0.8):
            self.browser.click(left + fraction * (right - left), (top + bottom) / 2)
            state = self.browser.evaluate("window.transitionPreview.state()")
            self.assertGreater(state["at"], 0)
            # The frame shown at that moment of the preview's timeline (frame i at i / FPS), and its time.
            index = math.floor(state["at"] * FPS + 1e-9)
            self.assertEqual(state["frame"], index)
            image = self.browser.screenshot()
            got = self.playhead_x(image, y)
            expected = self.x_of(self.frames[index]["time"])
            self.assertLessEqual(abs(got - expected), 1.5, (fraction, got, expected))
            positions.append(got)
        self.assertGreater(positions[1] - positions[0], 100)

    def test_slow_motion_changes_the_playback_rate(self):
        self.open("t=0&text=0&loop=0")
        rates = {}
        for speed, wall in (("0.1", 1.2), ("0.25", 1.0), ("0.5", 0.9), ("1", 0.7)):
            options = self.browser.evaluate("Array.from(document.querySelectorAll('#th-speed option')).map(o => o.value)")
            self.assertIn(speed, options)
            measured = self.browser.evaluate(
                "(async function () { const p = window.transitionPreview, s = document.getElementById('th-speed');"
                f" s.value = '{speed}'; s.dispatchEvent(new Event('change')); p.pause(); p.show(0); p.play();"
                " await new Promise(r => requestAnimationFrame(r));"
                " const a0 = p.state().at, w0 = performance.now();"
                f" await new Promise(r => setTimeout(r, {wall * 1000}));"
                " await new Promise(r => requestAnimationFrame(r));"
                " const a1 = p.state().at, w1 = performance.now(); p.pause();"
                " return [a1 - a0, (w1 - w0) / 1000]; })()", await_promise=True)
            progress, elapsed = measured
            rates[speed] = progress / elapsed
            # Generous bounds (a loaded machine delays frames, not the clock the page plays by).
            self.assertGreater(rates[speed], float(speed) * 0.6, (speed, measured))
            self.assertLess(rates[speed], float(speed) * 1.4, (speed, measured))
        self.assertLess(rates["0.1"], rates["1"] / 3)

    def test_onion_skin_draws_three_ghosts(self):
        end = self.frames[-1]["time"]  # the preview's timeline: frame i at i / FPS
        ghost = tuple(round(0.35 * r + 0.65 * 255) for r in (255, 0, 0))  # red at 35 % over white
        for onion in (True, False):
            self.open(f"t=0&bare=1&text=0&onion={1 if onion else 0}")
            image = self.browser.screenshot()
            for fraction in (0.25, 0.5, 0.75):
                index = math.floor(fraction * end * FPS + 1e-9)
                x = box_x(self.frames[index]["time"])
                for px, py in ((x + 20, 120), (x + 5, 105), (x + 35, 135)):
                    pixel = image.pixel(int(px), int(py))
                    if onion:
                        self.assertTrue(colour_near(pixel, ghost, 8), f"ghost at {fraction}: {pixel} at {(px, py)}")
                    else:
                        self.assertTrue(colour_near(pixel, (255, 255, 255), 3), f"no onion, yet {pixel} at {(px, py)}")
                # Between the ghosts the stage is white.
                self.assertTrue(colour_near(image.pixel(int(x + 40 + 8), 120), (255, 255, 255), 3))
            # The live box at t = 0 is drawn as it is (x 20 … 60), not veiled.
            self.assertTrue(colour_near(image.pixel(40, 120), (255, 0, 0), 3), image.pixel(40, 120))

    def test_hovering_a_bar_shows_its_parameters(self):
        self.open("t=0.5&text=0")
        cases = {
            0: ["box (view) · center", "from [40,120] → to [340,120]", "begin 0 s · duration 1 s · end 1 s",
                "timing linear", "created by block 0", "completion attached"],
            1: ["fader (view) · alpha", "from 1 → to 0.2", "begin 0.25 s · duration 0.5 s · end 0.75 s",
                "timing steps(4, end)", "block 1", "started by block 0's completion", "depth 1", "delay 0.25 s"],
            2: ["box (view) · bounds", "timing spring", "stiffness 200", "damping 10", "springBlock 2"],
            3: ["fader (view) · backgroundColor", "keyframes (3 values, linear)", "keyTimes 0, 0.3, 1", "keyframeBlock 3"],
        }
        for index, expected in cases.items():
            left, top, right, bottom = self.bar_rect(index)
            x, y = left + (right - left) * 0.3, (top + bottom) / 2
            self.browser.mouse("mouseMoved", x, y)
            tip = self.browser.evaluate(
                "(function () { const t = document.getElementById('th-tooltip'); const r = t.getBoundingClientRect();"
                " return [t.hidden, t.textContent, r.left, r.top, r.width, r.height]; })()")
            hidden, text, tip_left, tip_top, width, height = tip
            self.assertFalse(hidden, index)
            self.assertGreater(width * height, 0)
            self.assertLess(abs(tip_left - x), 40)  # next to the pointer
            self.assertLess(abs(tip_top - y), 200)
            for piece in expected:
                self.assertIn(piece, text, (index, text))
        _, top, _, bottom = self.browser.rect(".th-tail .th-bar")
        left, _, right, _ = self.browser.rect(".th-tail .th-bar")
        self.browser.mouse("mouseMoved", (left + right) / 2, (top + bottom) / 2)
        text = self.browser.evaluate("document.getElementById('th-tooltip').textContent")
        for piece in ("tail: finish (after release)", "0.4 s → 1.2 s", "in 0.3 s of clock from 0.5 s", "velocity 1/s",
                      "timing easeOut"):
            self.assertIn(piece, text)
        self.browser.mouse("mouseMoved", 5, 5)
        self.assertTrue(self.browser.evaluate("document.getElementById('th-tooltip').hidden"))

    def stage_point(self, x, y):
        """Client coordinates of stage point (x, y)."""
        left, top, _, _ = self.browser.rect("#th-stage")
        scale = self.browser.evaluate("window.transitionPreview.state().scale")
        return left + x * scale, top + y * scale, scale

    def outlined(self, image, x0, y0, x1, y1):
        """Whether the selection outline (#00c8ff, 2 px inside the box) runs along the box's four edges."""
        cyan = (0, 200, 255)
        hits = 0
        for (px, py) in (((x0 + x1) / 2, y0 + 1), ((x0 + x1) / 2, y1 - 1), (x0 + 1, (y0 + y1) / 2), (x1 - 1, (y0 + y1) / 2)):
            cx, cy, scale = self.stage_point(px, py)
            near = [image.pixel(int(cx) + dx, int(cy) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
            hits += any(colour_near(p, cyan, 70) for p in near)
        return hits == 4

    def test_clicking_a_view_highlights_its_rows(self):
        self.open("t=0.5&text=0")
        x = box_x(0.5)
        cx, cy, _ = self.stage_point(x + 20, 120)
        self.browser.click(cx, cy)
        rows = self.rows()
        for target, prop, _, classes in rows:
            self.assertEqual("th-of-view" in classes.split(), target == "box", (target, prop, classes))
        selected = [(r[0], r[1]) for r in rows if "th-selected" in r[3].split()]
        self.assertEqual(selected, [("box", "center")])
        image = self.browser.screenshot()
        self.assertTrue(self.outlined(image, x, 100, x + 40, 140))
        self.assertFalse(self.outlined(image, 40, 400, 120, 480))
        # The row's background shows it (pixels of the label column).
        _, top, _, bottom = self.bar_rect(0)
        label_left, _, _, _ = self.browser.rect(".th-lane .th-label")
        background = image.pixel(int(label_left) + 3, int(top) + 2)
        self.assertTrue(colour_near(background, (0x33, 0x46, 0x6b), 6), background)
        # A click where no animated view is (the root, which has no rows) clears the rows.
        cx, cy, _ = self.stage_point(300, 700)
        self.browser.click(cx, cy)
        self.assertFalse(any("th-of-view" in r[3] or "th-selected" in r[3] for r in self.rows()))

    def test_clicking_a_row_highlights_its_view(self):
        self.open("t=0.5&text=0")
        left, top, _, bottom = self.browser.rect('.th-lane[data-target="fader"][data-property="alpha"] .th-label')
        self.browser.click(left + 20, (top + bottom) / 2)
        selected = [(r[0], r[1]) for r in self.rows() if "th-selected" in r[3].split()]
        self.assertEqual(selected, [("fader", "alpha")])
        image = self.browser.screenshot()
        self.assertTrue(self.outlined(image, 40, 400, 120, 480))
        x = box_x(0.5)
        self.assertFalse(self.outlined(image, x, 100, x + 40, 140))

    def test_the_property_plot_marks_the_current_sample(self):
        self.open("t=0.5&text=0&row=0")
        legend = self.browser.evaluate("document.getElementById('th-plot-legend').innerText")
        self.assertIn("box · center", legend)
        # position.x runs 40 → 340 (the frames' `position`); y stays 120 and is not plotted.
        self.assertIn("x 190", legend)
        self.assertNotIn("y 120", legend)
        geometry = self.browser.evaluate(
            "(function () { const svg = document.querySelector('#th-plot svg'); const path = svg.querySelector('path');"
            " const mark = svg.querySelector('circle.th-sample'); const box = svg.getBoundingClientRect();"
            " const d = path.getAttribute('d').split(/[ML]/).filter(Boolean).map(p => p.trim().split(' ').map(Number));"
            " return {first: d[0], last: d[d.length - 1], count: d.length, mark: [+mark.getAttribute('cx'), +mark.getAttribute('cy')],"
            " left: box.left, width: box.width}; })()")
        self.assertEqual(geometry["count"], len(self.frames))
        (x0, y0), (x1, y1) = geometry["first"], geometry["last"]
        # Value against time: x along the same axis as the lanes (0 … span), and a linear motion is a straight line,
        # so the sample at 0.5 s (x 190, half way from 40 to 340) is the segment's midpoint.
        self.assertAlmostEqual(x0, 0, delta=0.5)
        self.assertAlmostEqual(geometry["left"] + x1, self.x_of(1.0), delta=1)
        mx, my = geometry["mark"]
        self.assertAlmostEqual(geometry["left"] + mx, self.x_of(0.5), delta=1)
        self.assertAlmostEqual(my, (y0 + y1) / 2, delta=0.5)
        self.assertLess(y1, y0)  # larger values higher up


def service_timeline(host, animator, operation):
    """The timeline of one built-in transition on the sample scene, asked of the service over stdio as an editor
    would (transition/start with "timeline": "notify" on the manual clock, ticks of 1/60 s to its end): the last one
    the host sent."""
    scene = json.loads(subprocess.run([host, "render", "--scene", "sample", "--operation", operation],
                                      check=True, capture_output=True, text=True, timeout=60).stdout)
    process = subprocess.Popen([host], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    latest, ended, next_id = None, False, 0

    def call(method, params):
        nonlocal latest, ended, next_id
        next_id += 1
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}) + "\n")
        process.stdin.flush()
        while True:
            message = json.loads(process.stdout.readline())
            if message.get("method") == "transition/timelineChanged":
                latest = message["params"]
            elif message.get("method") == "transition/didEnd":
                ended = True
            elif message.get("id") == next_id:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return message["result"]

    try:
        started = call("transition/start", {"animator": animator, "operation": operation, "clock": "manual",
                                            "timeline": "notify", **scene})
        latest = started["timeline"]
        transition = started["transition"]
        for _ in range(60 * 30):
            if ended:
                break
            call("transition/tick", {"transition": transition, "dt": 1 / 60})
        assert ended, f"{animator} did not end"
    finally:
        process.stdin.close()
        process.wait(timeout=60)
        process.stdout.close()
    return latest


class BuiltinLanesTests(BrowserCase):
    """`render --format html` of every built-in animator asks the service for the timeline and draws it."""

    @classmethod
    def prepare(cls):
        listing = subprocess.run(
            [cls.host, "render", "--animator", "all", "--format", "html", "-o", cls.work, "--quiet"],
            capture_output=True, text=True, timeout=300, check=True).stdout
        cls.pages = [line.split("\t") for line in listing.splitlines()]

    def test_every_builtin_has_one_lane_per_animated_view_and_property(self):
        self.assertEqual(len(self.pages), 5)
        for path, animator, operation in self.pages:
            with self.subTest(animator=animator):
                timeline = service_timeline(self.host, animator, operation)
                self.assertTrue(timeline["animations"], animator)
                expected = {(a["target"], a["property"]) for a in timeline["animations"]}
                self.browser.open("file://" + path + "#t=0&text=0")
                rows = self.browser.evaluate(
                    "Array.from(document.querySelectorAll('.th-lane')).map(r => [r.dataset.target, r.dataset.property,"
                    " r.querySelectorAll('.th-bar').length])")
                self.assertEqual(len(rows), len(expected), rows)
                self.assertEqual({(t, p) for t, p, _ in rows}, expected)
                for target, prop, bars in rows:
                    self.assertEqual(bars, sum(1 for a in timeline["animations"]
                                               if (a["target"], a["property"]) == (target, prop)))

    def test_pull_down_lane_against_its_source(self):
        # PullDown.swift presents with one UIView.animate(withDuration: 0.5, options: easeInOut) setting the detail
        # view's frame from y = −844 to the container's bounds: its center moves (195, −422) → (195, 422) over 0 … 0.5 s.
        path = next(p for p, animator, _ in self.pages if animator.endswith("pull-down"))
        self.browser.open("file://" + path + "#t=0.25&text=0")
        self.browser.evaluate("window.transitionPreview.pause()")
        rows = self.browser.evaluate("window.transitionPreview.data.timeline.rows")
        self.assertEqual([(r["target"], r["property"]) for r in rows], [("detail", "center")])
        (bar,) = rows[0]["bars"]
        d = bar["d"]
        self.assertEqual((d["begin"], d["duration"], d["end"]), (0, 0.5, 0.5))
        self.assertEqual(d["timing"], {"curve": "easeInOut"})
        self.assertEqual((d["from"], d["to"]), ({"x": 195, "y": -422}, {"x": 195, "y": 422}))
        span = self.browser.evaluate("window.transitionPreview.data.timeline.span")
        self.assertEqual(span, 0.5)  # the duration, the bar's end and the last frame's time
        image = self.browser.screenshot()
        left, _, right, _ = self.browser.rect("#th-axis")
        _, top, _, _ = self.browser.rect(".th-bar")
        colour = hex_colour(self.browser.evaluate("getComputedStyle(document.querySelector('.th-bar')).backgroundColor"))
        columns = [x for x in range(image.width) if colour_near(image.pixel(x, int(top) + 1), colour, 12)]
        self.assertLessEqual(abs(columns[0] - left), 1)
        self.assertLessEqual(abs(columns[-1] + 1 - (left + 0.5 / span * (right - left))), 1)
        # The easeInOut curve inside: progress at a quarter of the bar is y(s) with x(s) = 0.25.
        low, high = 0.0, 1.0
        for _ in range(60):
            mid = (low + high) / 2
            low, high = (mid, high) if bezier(mid, 0.42, 0.58) < 0.25 else (low, mid)
        progress = bezier(low, 0, 1)
        _, bar_top, _, bar_bottom = self.browser.rect(".th-bar")
        x = int(left + 0.25 * (right - left))
        y = bar_top + 3 + (1 - progress) * (bar_bottom - bar_top - 6)
        self.assertTrue(any(min(image.pixel(x, yy)[:3]) >= 170 for yy in range(int(y) - 2, int(y) + 3)), (x, y))

    def test_an_interactive_release_shows_its_tail(self):
        # Dragged to 30 % over 0.2 s and released at 1.2/s: the release rule finishes it with a velocity-seeded spring
        # tail from the transition time it was left at (0.3 · 0.5 s = 0.15 s) to the end (0.5 s).
        html = os.path.join(self.work, "drag.html")
        subprocess.run([self.host, "render", "--animator", "pull-down", "--script", "update 0.3 over 0.2, release 1.2",
                        "-q", "-o", html], check=True, timeout=120)
        self.browser.open("file://" + html + "#t=0&text=0")
        tails = self.browser.evaluate("window.transitionPreview.data.timeline.tails.map(t => t.d)")
        self.assertEqual(len(tails), 1)
        tail = tails[0]
        self.assertEqual((tail["operation"], tail["cause"], tail["velocity"]), ("finish", "release", 1.2))
        self.assertAlmostEqual(tail["from"], 0.15, places=9)
        self.assertEqual(tail["to"], 0.5)
        self.assertIn("spring", tail["timing"])
        label = self.browser.evaluate("document.querySelector('.th-tail').innerText")
        self.assertIn("finish (release)", label)
        # While the tail plays, its row says so; before the release it is pending.
        states = self.browser.evaluate(
            "(function () { const p = window.transitionPreview, f = p.data.frames, out = [];"
            " for (const phase of ['paused', 'finishing']) { const i = f.findIndex(x => x.phase === phase);"
            " p.show(f[i].at); out.push(document.querySelector('.th-tail .th-state').dataset.state); }"
            " return out; })()")
        self.assertEqual(states, ["th-pending", "th-running"])


if __name__ == "__main__":
    unittest.main()
