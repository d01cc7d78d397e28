"""The client's scene methods against the real transition-host: the PullDown example's own view controllers take a
pan before any transition exists, their handler presents, and the client follows the transition it started.

Expected values: the seed's rule (percent = translation.y / height, the velocity decides), PullDown's 0.5 s with
UIView's easeInOut (cubic-bezier 0.42, 0, 0.58, 1) moving the presented view from y = −height to 0.
"""

import os
import typing
import unittest

from .shapes import mismatch
from .support import EASE_IN_OUT, WAIT, host_binary, view
from transition_host_client import ErrorCode, TransitionHost, TransitionHostError

HEIGHT = 480.0
ANIMATOR = "com.example.uikit.pulldown/pull"


def tree(node_id):
    return {"id": node_id, "frame": {"x": 0, "y": 0, "width": 320, "height": HEIGHT}}


def pull_down_example() -> str:
    return os.path.join(os.path.dirname(host_binary()), "libUIKitExamplePullDown.so")


class SceneTests(unittest.TestCase):
    def setUp(self):
        self.client = TransitionHost(host_binary(), ["--allow-any-plugin-path"], timeout=WAIT, stderr="capture")
        self.addCleanup(self.client.close)
        self.client.plugins_load(pull_down_example())

    def open(self):
        opened = self.client.scene_open(
            ANIMATOR,
            tree("first"),
            container=(320, HEIGHT),
            storyboard={"SecondViewController": tree("second")},
            clock="manual",
        )
        self.assertEqual(opened["animator"], ANIMATOR)
        self.assertIsNone(mismatch(opened, typing.get_type_hints(TransitionHost.scene_open)["return"]))
        return opened["scene"]

    def test_a_pan_presents_and_the_client_follows_the_transition_it_started(self):
        scene = self.open()
        began = self.client.scene_gesture(scene, "began", (160, 48), translation=(0, 8))
        self.assertEqual(began["recognizers"], 1)
        self.assertIsNone(mismatch(began, typing.get_type_hints(TransitionHost.scene_gesture)["return"]))
        started = self.client.scene_transition_started(scene, timeout=WAIT)
        self.assertIsNone(
            mismatch(started, typing.get_type_hints(TransitionHost.scene_transition_started)["return"], "started")
        )
        self.assertEqual(started["transition"], began["transition"])
        self.assertEqual((started["operation"], started["from"], started["to"]), ("present", "first", "second"))
        self.assertEqual(started["duration"], 0.5)
        transition = started["transition"]
        # 240 / 480: held at half way, where easeInOut is ½ by symmetry.
        moved = self.client.scene_gesture(scene, "changed", (160, 288), translation=(0, 240))
        self.assertNotIn("transition", moved)
        frames = [n.params for n in self.client.drain_notifications(method="transition/frame", transition=transition)]
        self.assertAlmostEqual(frames[-1]["percent"], 0.5, places=12)
        self.assertAlmostEqual(view(frames[-1], "second")["frame"]["y"], -HEIGHT * (1 - EASE_IN_OUT(0.5)), places=6)
        # Let go while moving down: the seed's velocity test finishes.
        self.client.scene_gesture(scene, "ended", (160, 288), translation=(0, 240), velocity=(0, 300))
        self.client.transition_tick(1, transition=transition)
        end = self.client.transition_wait(transition, timeout=WAIT)
        self.assertTrue(end["completed"])
        self.assertIsNone(self.client.scene_close(scene))
        with self.assertRaises(TransitionHostError) as caught:
            self.client.scene_gesture(scene, "began", (160, 48))
        self.assertEqual(caught.exception.code, ErrorCode.UNKNOWN_SCENE)
        self.assertEqual(caught.exception.data["field"], "scene")

    def test_a_sample_no_recognizer_takes_is_2011(self):
        scene = self.open()
        with self.assertRaises(TransitionHostError) as caught:
            self.client.scene_gesture(scene, "changed", (160, 60), translation=(0, 20))
        self.assertEqual(caught.exception.code, ErrorCode.GESTURE_NOT_RECEIVED)
        self.assertEqual(caught.exception.data["scene"], scene)
        self.assertEqual(caught.exception.data["reason"], "notInProgress")


if __name__ == "__main__":
    unittest.main()
