"""The HTML preview really draws: every built-in animator's `render --format html` opens in headless Chromium,
two scrubber positions give different pictures, and a solid view's box on screen matches its world transform
within a pixel.

The expected box comes from the frames of `render --format jsonl` (the protocol's frames, not the page's own
data): the four corners (u, v) of the view's bounds times its `worldTransform` (row vector, divided by w), here
in Python. The measured box comes from the screenshot's pixels.

Run: TRANSITION_HOST_BIN=.build/debug/transition-host python3 -m unittest discover -s Tests/Browser -v
Needs Debian's `chromium` (make test-browser installs it when missing).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import json
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTAINER = (390, 844)  # the sample scene's container, in CSS pixels at device scale 1


def host_binary():
    path = os.environ.get("TRANSITION_HOST_BIN") or os.path.join(ROOT, ".build", "debug", "transition-host")
    if not os.path.isfile(path):
        raise unittest.SkipTest(f"no transition-host binary at {path}; build it or set TRANSITION_HOST_BIN")
    return path


def chromium_binary():
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def screenshot(browser, html_path, fragment, out_path, profile):
    """A screenshot of the page at `fragment`, in a window the size of the container."""
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--no-first-run",
        "--user-data-dir=" + profile,
        f"--window-size={CONTAINER[0]},{CONTAINER[1]}",
        "--screenshot=" + out_path,
        "file://" + html_path + "#" + fragment,
    ]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
    with open(out_path, "rb") as handle:
        return png.decode(handle.read())


def project(matrix, u, v):
    """(u, v, 0, 1) · M, divided by w; None behind the eye."""
    m = matrix
    x = u * m[0] + v * m[4] + m[12]
    y = u * m[1] + v * m[5] + m[13]
    w = u * m[3] + v * m[7] + m[15]
    if w <= 0:
        return None
    return (x / w, y / w)


def world_box(view):
    width, height = view["bounds"]["width"], view["bounds"]["height"]
    corners = [project(view["worldTransform"], u, v) for u, v in ((0, 0), (width, 0), (width, height), (0, height))]
    if any(corner is None for corner in corners):
        return None
    xs = [corner[0] for corner in corners]
    ys = [corner[1] for corner in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def contains(outer, inner, slack=0.5):
    return (
        outer[0] - slack <= inner[0] and outer[1] - slack <= inner[1] and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def paints(view):
    """Whether a view puts pixels on screen (text is hidden in the checks)."""
    if view["hidden"] or view["opacity"] <= 0:
        return False
    colour = view.get("backgroundColor")
    return bool((colour and colour[3] > 0) or view.get("gradient") or view.get("snapshotOf"))


def candidates(frame):
    """Opaque solid views that nothing drawn later covers and no ancestor clips, with their colour unique among
    painting views: their on-screen box can be read from the pixels."""
    views = frame["views"]
    by_id = {view["id"]: view for view in views}
    boxes = {view["id"]: world_box(view) for view in views}
    colours = {}
    for view in views:
        if paints(view) and view.get("backgroundColor"):
            key = tuple(round(c * 255) for c in view["backgroundColor"][:3])
            colours[key] = colours.get(key, 0) + 1
    stage = (0, 0) + CONTAINER
    found = []
    for index, view in enumerate(views):
        colour = view.get("backgroundColor")
        box = boxes[view["id"]]
        if not paints(view) or view.get("gradient") or view.get("snapshotOf") or box is None:
            continue
        if colour[3] != 1 or view["opacity"] != 1 or colours[tuple(round(c * 255) for c in colour[:3])] != 1:
            continue
        if box[2] - box[0] < 24 or box[3] - box[1] < 24 or not contains(stage, box, 0):
            continue
        if any(paints(later) and boxes[later["id"]] is not None and overlaps(box, boxes[later["id"]])
               for later in views[index + 1 :]):
            continue
        if any(later.get("snapshotOf") for later in views[index + 1 :]):
            continue  # a snapshot draws its source's subviews, which the frame does not list
        parent, clipped = view["parent"], False
        while parent is not None:
            ancestor = by_id[parent]
            if ancestor["clipsToBounds"] and (boxes[parent] is None or not contains(boxes[parent], box)):
                clipped = True
            parent = ancestor["parent"]
        if not clipped:
            found.append((view, box))
    return found


def corners(view):
    width, height = view["bounds"]["width"], view["bounds"]["height"]
    return [project(view["worldTransform"], u, v) for u, v in ((0, 0), (width, 0), (width, height), (0, height))]


def unproject(matrix, x, y):
    """The (u, v) on the view's plane that lands on screen point (x, y): the inverse of the plane's homography
    (rows 1, 2, 4 of columns 1, 2, 4 of the row-vector matrix)."""
    m = matrix
    a, b, c = m[0], m[1], m[3]
    d, e, f = m[4], m[5], m[7]
    g, h, i = m[12], m[13], m[15]
    # (u, v, 1) · H = s (x, y, 1): solve the 3 × 3 system by Cramer's rule on H's transpose.
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    inv = [
        (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
        (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
        (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det,
    ]
    u = x * inv[0] + y * inv[3] + inv[6]
    v = x * inv[1] + y * inv[4] + inv[7]
    w = x * inv[2] + y * inv[5] + inv[8]
    return u / w, v / w


def compare_with_quad(image, view, tolerance=3, margin=1.0):
    """Pixels more than `margin` px inside the view's projected quad must have its colour, pixels more than
    `margin` px outside must not (the colour is unique on screen). Rounded corners (cornerRadius) are left out
    of the inside test. Returns (inside pixels checked, list of violations)."""
    quad = corners(view)
    target = tuple(round(c * 255) for c in view["backgroundColor"][:3])
    area2 = sum(quad[k][0] * quad[(k + 1) % 4][1] - quad[(k + 1) % 4][0] * quad[k][1] for k in range(4))
    sign = 1 if area2 > 0 else -1
    edges = []
    for k in range(4):
        (x0, y0), (x1, y1) = quad[k], quad[(k + 1) % 4]
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        edges.append((x0, y0, (x1 - x0) / length, (y1 - y0) / length))
    width, height = view["bounds"]["width"], view["bounds"]["height"]
    radius = view.get("cornerRadius", 0)
    xs = [p[0] for p in quad]
    ys = [p[1] for p in quad]
    inside_count, violations = 0, []
    for y in range(max(0, int(min(ys)) - 4), min(image.height, int(max(ys)) + 5)):
        row = image.rows[y]
        for x in range(max(0, int(min(xs)) - 4), min(image.width, int(max(xs)) + 5)):
            cx, cy = x + 0.5, y + 0.5
            # Signed distance to the nearest edge line, positive inside.
            distance = min(sign * (dx * (cy - y0) - dy * (cx - x0)) for x0, y0, dx, dy in edges)
            matches = all(abs(row[x][i] - target[i]) <= tolerance for i in range(3))
            if distance > margin:
                if radius > 0:
                    u, v = unproject(view["worldTransform"], cx, cy)
                    if (u < radius + 1 or u > width - radius - 1) and (v < radius + 1 or v > height - radius - 1):
                        continue
                inside_count += 1
                if not matches:
                    violations.append((x, y, "inside, not the view's colour", row[x]))
            elif distance < -margin and matches:
                violations.append((x, y, "outside, has the view's colour", row[x]))
    return inside_count, violations


def differing_pixels(a, b):
    return sum(1 for y in range(a.height) for x in range(a.width) if a.rows[y][x] != b.rows[y][x])


class PNGDecoderTests(unittest.TestCase):
    """The decoder against images encoded here with every filter type (so a pixel check cannot pass on a
    misdecoded screenshot)."""

    @staticmethod
    def encode(rows, filters, colour_type=2):
        import struct
        import zlib

        channels = png.CHANNELS[colour_type]
        height, width = len(rows), len(rows[0])
        raw = bytearray()
        previous = bytearray(width * channels)
        for y, row in enumerate(rows):
            line = bytearray(v for pixel in row for v in pixel[:channels])
            kind = filters[y % len(filters)]
            out = bytearray(line)
            for i in range(len(line)):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                upper_left = previous[i - channels] if i >= channels else 0
                predictor = [0, left, up, (left + up) >> 1, png._paeth(left, up, upper_left)][kind]
                out[i] = (line[i] - predictor) & 0xFF
            raw += bytes([kind]) + out
            previous = line

        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
        return png.SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b"")

    def test_every_filter_round_trips(self):
        rows = [[((x * 37 + y * 11) % 256, (x * y) % 256, (255 - x * 5) % 256, 255) for x in range(9)] for y in range(7)]
        for colour_type in (2, 6):
            decoded = png.decode(self.encode(rows, [0, 1, 2, 3, 4], colour_type))
            self.assertEqual((decoded.width, decoded.height), (9, 7))
            self.assertEqual(decoded.rows, [[pixel[:3] for pixel in row] for row in rows])

    def test_corrupt_data_is_refused(self):
        data = bytearray(self.encode([[(1, 2, 3, 255)]], [0]))
        data[-20] ^= 0xFF
        with self.assertRaises(ValueError):
            png.decode(bytes(data))

    def test_world_box_projects_with_perspective(self):
        # A 100 × 50 view at x = 10 whose w grows along u (m14 = 0.001): corners (0, 0) → (10, 0);
        # (100, 0) → (110, 0) / 1.1 = (100, 0); (100, 50) → (110, 50) / 1.1 = (100, 45.45…); (0, 50) → (10, 50).
        matrix = [1, 0, 0, 0.001, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]
        box = world_box({"bounds": {"width": 100, "height": 50}, "worldTransform": matrix})
        for got, expected in zip(box, (10, 0, 100, 50)):
            self.assertAlmostEqual(got, expected)
        behind = [1, 0, 0, -0.02, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]  # w = 1 − 0.02 u ≤ 0 from u = 50 on
        self.assertIsNone(world_box({"bounds": {"width": 100, "height": 50}, "worldTransform": behind}))


class PreviewInBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = chromium_binary()
        if cls.browser is None:
            raise unittest.SkipTest("chromium is not installed (make test-browser installs it)")
        cls.host = host_binary()
        cls.work = tempfile.mkdtemp(prefix="th-browser-")
        cls.profile = os.path.join(cls.work, "profile")
        html_dir = os.path.join(cls.work, "html")
        jsonl_dir = os.path.join(cls.work, "jsonl")
        listing = subprocess.run(
            [cls.host, "render", "--animator", "all", "--format", "html", "-o", html_dir, "--quiet"],
            capture_output=True, text=True, timeout=300, check=True,
        ).stdout
        subprocess.run(
            [cls.host, "render", "--animator", "all", "--format", "jsonl", "-o", jsonl_dir, "--quiet"],
            capture_output=True, text=True, timeout=300, check=True,
        )
        cls.animators = []
        for line in listing.splitlines():
            path, animator, operation = line.split("\t")
            name = os.path.splitext(os.path.basename(path))[0]
            with open(os.path.join(jsonl_dir, name + ".jsonl")) as handle:
                messages = [json.loads(text) for text in handle if text.strip()]
            frames = [m["params"] for m in messages if m["method"] == "transition/frame"]
            cls.animators.append((name, animator, operation, path, frames))

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "work", None):
            shutil.rmtree(cls.work, ignore_errors=True)

    def test_every_builtin_animator_is_previewed(self):
        names = sorted(name for name, *_ in self.animators)
        self.assertEqual(names, ["flip", "magic-move", "pull-down", "segue-slide", "sheet"])
        for name, _, _, path, frames in self.animators:
            with open(path, encoding="utf-8") as handle:
                page = handle.read()
            # Self-contained: nothing is fetched from anywhere.
            self.assertNotIn("http://", page.replace("http://www.w3.org", ""), name)
            self.assertNotIn("https://", page, name)
            self.assertNotIn(" src=", page, name)
            self.assertGreater(len(frames), 10, name)

    def test_two_scrubber_positions_differ(self):
        for name, _, _, path, frames in self.animators:
            with self.subTest(animator=name):
                out = os.path.join(self.work, name)
                early = screenshot(self.browser, path, "p=0.2&bare=1&text=0", out + "-early.png", self.profile)
                late = screenshot(self.browser, path, "p=0.7&bare=1&text=0", out + "-late.png", self.profile)
                self.assertEqual((early.width, early.height), CONTAINER)
                changed = differing_pixels(early, late)
                # A transition moves or fades whole screens: far more than 1 % of the pixels change.
                self.assertGreater(changed, CONTAINER[0] * CONTAINER[1] // 100, f"{name}: {changed} pixels changed")

    def check_box(self, name, path, frames, moving_only):
        """Opens the page at the frame nearest the middle with a readable view (one that moved since the start
        when `moving_only`) and compares that view's pixels with its world transform. False when no frame has one.
        """
        start_boxes = {view["id"]: world_box(view) for view in frames[0]["views"]}
        chosen = None
        for index in sorted(range(len(frames)), key=lambda i: abs(i - len(frames) // 2)):
            readable = [
                (view, box)
                for view, box in candidates(frames[index])
                if not moving_only
                or start_boxes.get(view["id"]) is None
                or max(abs(a - b) for a, b in zip(start_boxes[view["id"]], box)) > 2
            ]
            if readable:
                chosen = (index, max(readable, key=lambda item: (item[1][2] - item[1][0]) * (item[1][3] - item[1][1])))
                break
        if chosen is None:
            return False
        index, (view, box) = chosen
        if view["boundingBox"] is not None:
            host = view["boundingBox"]
            for mine, theirs in zip(box, (host["x"], host["y"], host["x"] + host["width"], host["y"] + host["height"])):
                self.assertAlmostEqual(mine, theirs, delta=1e-6)
        image = screenshot(
            self.browser, path, f"frame={index}&bare=1&text=0", os.path.join(self.work, f"{name}-box.png"), self.profile
        )
        inside, violations = compare_with_quad(image, view)
        self.assertGreater(inside, 100, f"{name} frame {index}: {view['id']} covers too few pixels to judge")
        self.assertEqual(
            violations[:5], [], f"{name} frame {index} view {view['id']} (box {[round(b, 2) for b in box]}): "
            f"{len(violations)} pixels off by more than a pixel"
        )
        return True

    def test_a_solid_view_is_where_its_world_transform_puts_it(self):
        for name, _, _, path, frames in self.animators:
            with self.subTest(animator=name):
                # A view that moved when there is one; otherwise (a cross-fade, a page turn whose shadow covers the
                # turning page) any readable view.
                checked = self.check_box(name, path, frames, moving_only=True) or self.check_box(
                    name, path, frames, moving_only=False
                )
                self.assertTrue(checked, f"{name}: no frame has a readable view")

    def render_pair(self, name, arguments):
        """HTML and JSON Lines of one render with `arguments`."""
        html = os.path.join(self.work, name + ".html")
        subprocess.run([self.host, "render", *arguments, "-q", "-o", html], check=True, timeout=120)
        lines = subprocess.run(
            [self.host, "render", *arguments, "-q", "--format", "jsonl"],
            check=True, timeout=120, capture_output=True, text=True,
        ).stdout.splitlines()
        frames = [json.loads(line)["params"] for line in lines if '"transition/frame"' in line]
        return html, frames

    def test_a_view_turning_under_perspective(self):
        # flip without its shadow: the turning page's rows are projected through m34 = −1/500 in mid-turn.
        html, frames = self.render_pair("flip-noshadow", ["--animator", "flip", "--params", '{"shadow": false}'])
        middle = frames[len(frames) // 2]
        self.assertTrue(
            any(abs(v["worldTransform"][3]) > 1e-6 for v in middle["views"]), "the middle frame has no perspective"
        )
        self.assertTrue(self.check_box("flip-noshadow", html, frames, moving_only=True))

    def test_a_snapshot_flight(self):
        # magic-move with its shared element named: the card's snapshot flies; the readable view is the one
        # nearest the middle frame that moved.
        params = '{"source": "home-card", "target": "detail-hero"}'
        html, frames = self.render_pair("magic-move-hero", ["--animator", "magic-move", "--operation", "push", "--params", params])
        self.assertTrue(any(v.get("snapshotOf") == "home-card" for f in frames for v in f["views"]))
        self.assertTrue(self.check_box("magic-move-hero", html, frames, moving_only=False))
    def test_compare_outlines_the_expected_frame(self):
        # A golden trace of pull-down made with duration 0.6, drawn over a run with 0.5 (render --compare). At
        # t = 0.25 s the trace's presented root `detail` (390 × 844, from y = -844) is 844 · easeInOut(0.25 / 0.6)
        # down, the actual one 844 · easeInOut(0.5) = 422 down: the magenta outline (2 px inside the box) must run
        # along the expected bottom edge, not the actual one.
        trace = os.path.join(self.work, "pull-down-0.6.json")
        subprocess.run(
            [self.host, "record", "--animator", "pull-down", "--params", '{"duration": 0.6}', "-q", "-o", trace],
            check=True, timeout=120,
        )
        html = os.path.join(self.work, "compare.html")
        subprocess.run(
            [self.host, "render", "--compare", trace, "--animator", "pull-down", "--params", '{"duration": 0.5}',
             "-q", "-o", html],
            check=True, timeout=120,
        )
        image = screenshot(self.browser, html, "t=0.25&bare=1&text=0", os.path.join(self.work, "compare.png"),
                           self.profile)

        def ease_in_out(progress):
            # (0.42, 0, 0.58, 1): solve x(s) = progress by bisection, return y(s).
            def bezier(s, p1, p2):
                return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3
            low, high = 0.0, 1.0
            for _ in range(100):
                mid = (low + high) / 2
                if bezier(mid, 0.42, 0.58) < progress:
                    low = mid
                else:
                    high = mid
            return bezier((low + high) / 2, 0, 1)

        expected_bottom = 844 * ease_in_out(0.25 / 0.6)
        actual_bottom = 844 * ease_in_out(0.5)
        self.assertGreater(actual_bottom - expected_bottom, 60)

        def magenta(x, y):
            r, g, b = image.pixel(x, y)[:3]
            return r > 200 and g < 80 and b > 200

        # The bottom border: rows bottom − 2 and bottom − 1 (within a pixel), along the middle of the stage.
        row = int(round(expected_bottom))
        for x in range(150, 240, 10):
            self.assertTrue(
                any(magenta(x, y) for y in range(row - 3, row + 1)),
                f"no outline at x {x} near y {expected_bottom:.2f}: {[image.pixel(x, y) for y in range(row - 4, row + 2)]}",
            )
            self.assertFalse(any(magenta(x, y) for y in range(row + 2, row + 6)), f"outline below y {row} at x {x}")
        # Left of the home rows (x 16 to 374), the expected edge is outlined and the actual one is not.
        actual_row = int(round(actual_bottom))
        for x in (6, 8, 10, 12):
            self.assertTrue(any(magenta(x, y) for y in range(row - 3, row + 1)), f"no outline at x {x}")
            self.assertFalse(any(magenta(x, y) for y in range(actual_row - 3, actual_row + 1)), f"actual edge at x {x}")


if __name__ == "__main__":
    unittest.main()
