"""The client against the real transition-host: every helper, notifications, errors, and the process lifecycle.

Expected values come from the animators' published behaviour (CONVENTIONS.md, the Minimal fixture's source) and
formulas computed here: the fade animator takes alpha 0 → 1 with easeInOut (cubic-bezier 0.42, 0, 0.58, 1) over
its `duration` parameter; pull-down lasts 0.5 s.
"""

import threading
import unittest

from .support import (
    CONTAINER,
    EASE_IN_OUT,
    FROM_TREE,
    TO_TREE,
    WAIT,
    gestures_plugin,
    host_binary,
    minimal_plugin,
    view,
)
from transition_host_client import (
    CONTENT_LENGTH,
    ErrorCode,
    TransitionHost,
    TransitionHostError,
    TransitionHostExited,
)

BUILTINS = {"flip", "magic-move", "pull-down", "segue-slide", "sheet"}


def host(**options) -> TransitionHost:
    options.setdefault("timeout", WAIT)
    options.setdefault("stderr", "capture")
    return TransitionHost(host_binary(), ["--allow-any-plugin-path", *options.pop("args", [])], **options)


def start_fade(client, **options):
    """A fade present on the manual clock with duration 0.4; returns its id after taking its first frame."""
    options.setdefault("clock", "manual")
    started = client.transition_start(
        "fade", "present", FROM_TREE, TO_TREE, container=CONTAINER, params={"duration": 0.4}, **options
    )
    first = client.next_notification(WAIT, method="transition/frame", transition=started["transition"])
    return started, first.params


def run_to_end(client, transition, dt=1 / 60, limit=10_000):
    """Ticks until didEnd; returns (frames, didEnd params)."""
    frames = []
    for _ in range(limit):
        client.transition_tick(dt, transition=transition)
        for notification in client.drain_notifications(transition=transition):
            if notification.method == "transition/frame":
                frames.append(notification.params)
            elif notification.method == "transition/didEnd":
                return frames, notification.params
    raise AssertionError(f"{transition} did not end")


class DiscoveryTests(unittest.TestCase):
    def test_initialize_reports_the_host_and_its_capabilities(self):
        with host() as client:
            info = client.initialize({"name": "python tests", "version": "1"})
        self.assertEqual(info["serverInfo"]["name"], "transition-host")
        self.assertEqual(sorted(info["capabilities"]["framing"]), ["content-length", "newline"])
        self.assertIn("manual", info["capabilities"]["clocks"])
        self.assertEqual(info["pluginABI"]["major"], 1)

    def test_builtins_are_listed_with_their_metadata(self):
        with host() as client:
            animators = {a["id"].split("/")[-1]: a for a in client.animators_list()["animators"]}
            plugins = client.plugins_list()["plugins"]
        self.assertTrue(BUILTINS <= set(animators))
        self.assertEqual(animators["pull-down"]["operations"], ["present", "dismiss"])
        duration = next(p for p in animators["pull-down"]["params"] if p["name"] == "duration")
        self.assertEqual(duration["default"], 0.5)  # CONVENTIONS: pull-down lasts 0.5 s
        self.assertTrue(all(p["builtin"] for p in plugins if any(a.split("/")[-1] in BUILTINS for a in p["animators"])))

    def test_load_reload_and_unload_a_plugin(self):
        with host() as client:
            loaded = client.plugins_load(minimal_plugin())
            self.assertEqual(loaded["id"], "com.example.test.minimal")
            self.assertEqual(loaded["generation"], 1)
            self.assertEqual(
                sorted(loaded["animators"]), ["com.example.test.minimal/fade", "com.example.test.minimal/slide"]
            )
            ids = [a["id"] for a in client.animators_list(plugin="com.example.test.minimal")["animators"]]
            self.assertEqual(sorted(ids), sorted(loaded["animators"]))
            self.assertEqual(client.plugins_reload("com.example.test.minimal")["generation"], 2)
            client.plugins_unload("com.example.test.minimal")
            self.assertNotIn("com.example.test.minimal", [p["id"] for p in client.plugins_list()["plugins"]])
            with self.assertRaises(TransitionHostError) as caught:
                client.plugins_load("/nonexistent/libnothing.so")
            self.assertEqual(caught.exception.code, ErrorCode.PLUGIN_NOT_FOUND)


class ManualClockTests(unittest.TestCase):
    def test_ticks_sample_and_end(self):
        with host() as client:
            client.plugins_load(minimal_plugin())
            started, first = start_fade(client)
            transition = started["transition"]
            self.assertEqual(started["duration"], 0.4)
            self.assertEqual((first["seq"], first["time"], view(first, "b")["alpha"]), (0, 0, 0))

            ticked = client.transition_tick(0.1, transition=transition)
            self.assertEqual(ticked["transitions"][0]["percent"], 0.25)
            # tick emits its frame before replying: it is queued already.
            frame = client.drain_notifications(method="transition/frame")[0].params
            self.assertEqual((frame["seq"], frame["time"]), (1, 0.1))
            self.assertAlmostEqual(view(frame, "b")["alpha"], EASE_IN_OUT(0.25), places=9)

            # A sample has no side effect: the curve's midpoint, then the clock goes on from 0.1.
            sample = client.transition_sample(transition, percent=0.5)
            self.assertAlmostEqual(view(sample, "b")["alpha"], 0.5, places=9)
            self.assertAlmostEqual(
                view(client.transition_sample(transition, time=0.3), "b")["alpha"], EASE_IN_OUT(0.75), places=9
            )
            self.assertEqual(client.drain_notifications(), [])
            client.transition_tick(0.1, transition=transition)
            frame = client.drain_notifications(method="transition/frame")[0].params
            self.assertAlmostEqual(frame["time"], 0.2, places=12)

            listed = client.transition_list()["transitions"]
            self.assertEqual([(t["transition"], t["clock"], t["interactive"]) for t in listed], [(transition, "manual", False)])

            frames, end = run_to_end(client, transition)
            self.assertEqual(end, {"transition": transition, "completed": True, "cancelled": False})
            self.assertEqual([f["seq"] for f in frames], list(range(3, 3 + len(frames))))
            self.assertEqual(view(frames[-1], "b")["alpha"], 1)
            self.assertEqual(client.transition_wait(transition), end)  # already ended: at once
            self.assertEqual(client.transition_list(), {"transitions": []})

    def test_callback_sees_every_frame_in_order(self):
        seen = []
        with host(on_notification=seen.append) as client:
            client.plugins_load(minimal_plugin())
            started, _ = start_fade(client)
            run_to_end(client, started["transition"], dt=0.05)
        frames = [n.params["seq"] for n in seen if n.method == "transition/frame"]
        self.assertEqual(frames, list(range(len(frames))))
        self.assertEqual([n.method for n in seen if n.method == "transition/didEnd"], ["transition/didEnd"])

    def test_wait_times_out_with_a_cancel_then_answers_from_another_thread(self):
        with host() as client:
            client.plugins_load(minimal_plugin())
            started, _ = start_fade(client)
            transition = started["transition"]
            with self.assertRaises(TimeoutError):
                client.transition_wait(transition, timeout=0.05)
            result = {}
            waiter = threading.Thread(target=lambda: result.update(client.transition_wait(transition)))
            waiter.start()
            run_to_end(client, transition, dt=0.1)
            waiter.join(WAIT)
            self.assertEqual(result, {"transition": transition, "completed": True, "cancelled": False})

    def test_content_length_framing(self):
        with host(framing=CONTENT_LENGTH) as client:
            client.plugins_load(minimal_plugin())
            started, first = start_fade(client)
            self.assertEqual(first["seq"], 0)
            _, end = run_to_end(client, started["transition"], dt=0.2)
            self.assertTrue(end["completed"])


class InteractiveTests(unittest.TestCase):
    def test_update_clamps_and_release_forward_finishes(self):
        with host() as client:
            client.plugins_load(minimal_plugin())
            started, _ = start_fade(client, interactive=True)
            transition = started["transition"]
            self.assertEqual(
                client.transition_update(transition, 0.3),
                {"transition": transition, "phase": "paused", "time": 0.3 * 0.4, "percent": 0.3},
            )
            frame = client.next_notification(WAIT, method="transition/frame").params
            self.assertEqual(frame["phase"], "paused")
            self.assertAlmostEqual(frame["time"], 0.3 * 0.4, places=12)  # paused: time = percent × duration
            self.assertAlmostEqual(view(frame, "b")["alpha"], EASE_IN_OUT(0.3), places=9)
            self.assertEqual(client.transition_update(transition, 1.7)["percent"], 1)
            self.assertEqual(client.transition_update(transition, -0.5)["percent"], 0)
            client.transition_update(transition, 0.6)
            released = client.transition_release(transition, 1.2)
            self.assertEqual((released["decision"], released["phase"], released["percent"]), ("finish", "finishing", 0.6))
            _, end = run_to_end(client, transition)
            self.assertEqual((end["completed"], end["cancelled"]), (True, False))

    def test_release_backwards_cancels_and_restores_the_start(self):
        with host() as client:
            client.plugins_load(minimal_plugin())
            started, first = start_fade(client, interactive=True)
            transition = started["transition"]
            client.transition_update(transition, 0.6)
            self.assertEqual(client.transition_release(transition, -1.0)["decision"], "cancel")
            frames, end = run_to_end(client, transition)
            self.assertEqual((end["completed"], end["cancelled"]), (False, True))
            last = frames[-1]
            # The to screen left the container; the from screen is exactly as it started.
            self.assertIsNone(view(last, "b"))
            for view_id in ("a", "a-label"):
                self.assertEqual(view(last, view_id)["frame"], view(first, view_id)["frame"])
                self.assertEqual(view(last, view_id)["worldTransform"], view(first, view_id)["worldTransform"])

    def test_the_release_rule_at_low_speed_follows_the_percent(self):
        # CONVENTIONS: |v| ≤ 0.25/s → finish iff percent ≥ 0.5.
        with host() as client:
            client.plugins_load(minimal_plugin())
            for percent, velocity, decision in ((0.4, 0.1, "cancel"), (0.5, 0.0, "finish"), (0.45, 0.3, "finish")):
                started, _ = start_fade(client, interactive=True)
                client.transition_update(started["transition"], percent)
                released = client.transition_release(started["transition"], velocity)
                self.assertEqual(released["decision"], decision, (percent, velocity))
                run_to_end(client, started["transition"])

    def test_update_as_a_notification(self):
        with host() as client:
            client.plugins_load(minimal_plugin())
            started, _ = start_fade(client, interactive=True)
            self.assertIsNone(client.transition_update(started["transition"], 0.5, notify=True))
            # The next request is answered after the notification was applied (one thread, in order).
            self.assertAlmostEqual(client.transition_list()["transitions"][0]["percent"], 0.5)

    def test_finish_cancel_pause_and_reverse(self):
        with host() as client:
            client.plugins_load(minimal_plugin())
            started, _ = start_fade(client, interactive=True)
            transition = started["transition"]
            client.transition_update(transition, 0.5)
            status = client.transition_finish(transition, velocity=0.0)
            self.assertEqual(status["phase"], "finishing")
            with self.assertRaises(TransitionHostError) as caught:
                client.transition_finish(transition)
            self.assertEqual(caught.exception.code, ErrorCode.WRONG_STATE)
            run_to_end(client, transition)

            started, _ = start_fade(client)
            transition = started["transition"]
            client.transition_tick(0.2, transition=transition)
            self.assertEqual(client.transition_pause(transition)["phase"], "paused")
            client.transition_cancel(transition)
            _, end = run_to_end(client, transition)
            self.assertTrue(end["cancelled"])

            started, _ = start_fade(client)
            transition = started["transition"]
            client.transition_tick(0.2, transition=transition)
            client.transition_reverse(transition)
            frames, end = run_to_end(client, transition)
            self.assertTrue(end["cancelled"])  # reversed to the start: the transition is cancelled


class GestureTests(unittest.TestCase):
    """transition/gesture with the Gestures fixture's pull-down: its handler scrubs to translation.y / height and,
    on "ended", finishes when the finger moves down (velocity.y > 0)."""

    def test_a_pan_drives_the_pull_down_with_frames_and_the_handler_decides(self):
        with host() as client:
            client.plugins_load(gestures_plugin())
            started = client.transition_start(
                "com.example.test.gestures/pull", "present", FROM_TREE, TO_TREE, container=CONTAINER, clock="manual"
            )
            transition = started["transition"]
            client.next_notification(WAIT, method="transition/frame", transition=transition)
            began = client.transition_gesture(transition, "began", (150, 20))
            self.assertEqual(began, {"transition": transition, "phase": "paused", "time": 0, "percent": 0, "recognizers": 1})
            changed = client.transition_gesture(transition, "changed", (150, 170), translation=(0, 150))
            self.assertAlmostEqual(changed["percent"], 150 / 600, places=12)
            # Each received sample sent its frame before its reply; the last one shows the change.
            frames = client.drain_notifications(method="transition/frame", transition=transition)
            self.assertEqual(len(frames), 2)
            frame = frames[-1].params
            # The pull-down: the to screen comes down from −height with easeInOut over 0.5 s.
            self.assertAlmostEqual(view(frame, "b")["frame"]["y"], -600 * (1 - EASE_IN_OUT(0.25)), places=6)
            self.assertIsNone(
                client.transition_gesture(
                    transition, "ended", (150, 170), translation=(0, 150), velocity=(0, 40), notify=True
                )
            )
            self.assertEqual(client.transition_list()["transitions"][0]["phase"], "finishing")
            _, end = run_to_end(client, transition)
            self.assertEqual((end["completed"], end["cancelled"]), (True, False))

    def test_a_sample_without_a_gesture_in_progress_is_2011(self):
        with host() as client:
            client.plugins_load(gestures_plugin())
            started = client.transition_start(
                "com.example.test.gestures/pull", "present", FROM_TREE, TO_TREE, container=CONTAINER,
                clock="manual", frames="none",
            )
            with self.assertRaises(TransitionHostError) as caught:
                client.transition_gesture(started["transition"], "changed", (1, 1))
            self.assertEqual(caught.exception.code, ErrorCode.GESTURE_NOT_RECEIVED)
            self.assertEqual(caught.exception.data["reason"], "notInProgress")


class ErrorTests(unittest.TestCase):
    def test_application_errors_carry_code_message_and_data(self):
        with host() as client:
            with self.assertRaises(TransitionHostError) as caught:
                client.transition_update("t9", 0.5)
            self.assertEqual((caught.exception.code, caught.exception.data), (2005, {"transition": "t9"}))

            with self.assertRaises(TransitionHostError) as caught:
                client.transition_start("pull-down", "push", FROM_TREE, TO_TREE, container=CONTAINER)
            self.assertEqual(caught.exception.code, ErrorCode.OPERATION_NOT_SUPPORTED)
            self.assertEqual(caught.exception.data["supported"], ["present", "dismiss"])

            with self.assertRaises(TransitionHostError) as caught:
                client.transition_start("no-such-animator", "present", FROM_TREE, TO_TREE, container=CONTAINER)
            self.assertEqual(caught.exception.name, "UNKNOWN_ANIMATOR")

            broken = dict(TO_TREE, children=[{"id": "x", "frame": {"x": 0, "y": 0, "width": "wide", "height": 1}}])
            with self.assertRaises(TransitionHostError) as caught:
                client.transition_start("pull-down", "present", FROM_TREE, broken, container=CONTAINER)
            self.assertEqual(caught.exception.code, ErrorCode.INVALID_VIEW_TREE)
            self.assertEqual(caught.exception.data, {"node": "x", "field": "to.children[0].frame.width"})

            with self.assertRaises(TransitionHostError) as caught:
                client.request("transition/tick", {"dt": -1})
            self.assertEqual(caught.exception.code, ErrorCode.INVALID_PARAMS)

            with self.assertRaises(TransitionHostError) as caught:
                client.request("no/such/method")
            self.assertEqual(caught.exception.code, ErrorCode.METHOD_NOT_FOUND)

    def test_calls_after_the_end_are_refused(self):
        with host() as client:
            client.plugins_load(minimal_plugin())
            started, _ = start_fade(client)
            run_to_end(client, started["transition"], dt=0.5)
            with self.assertRaises(TransitionHostError) as caught:
                client.transition_tick(0.1, transition=started["transition"])
            self.assertEqual(caught.exception.code, ErrorCode.WRONG_STATE)

    def test_sample_needs_exactly_one_of_time_and_percent(self):
        with host() as client:
            with self.assertRaises(ValueError):
                client.transition_sample("t1")
            with self.assertRaises(ValueError):
                client.transition_sample("t1", time=0.1, percent=0.1)


class LifecycleTests(unittest.TestCase):
    def test_closing_stdin_ends_manual_transitions_with_input_closed(self):
        client = host()
        client.plugins_load(minimal_plugin())
        started, _ = start_fade(client)
        self.assertEqual(client.close(), 0)
        ends = [n.params for n in client.notifications(WAIT, method="transition/didEnd")]
        self.assertEqual(
            ends, [{"transition": started["transition"], "completed": False, "cancelled": True, "reason": "inputClosed"}]
        )

    def test_sigterm_ends_transitions_as_terminated_and_exits_zero(self):
        client = host()
        client.plugins_load(minimal_plugin())
        started, _ = start_fade(client)
        client.terminate()
        end = client.next_notification(WAIT, method="transition/didEnd")
        self.assertEqual(end.params["reason"], "terminated")
        self.assertEqual(client.close(), 0)

    def test_shutdown_then_exit(self):
        client = host()
        client.shutdown()
        with self.assertRaises(TransitionHostError) as caught:
            client.transition_list()
        self.assertEqual(caught.exception.code, ErrorCode.INVALID_REQUEST)
        client.exit()
        self.assertEqual(client.close(), 0)
        with self.assertRaises(TransitionHostExited):
            client.transition_list()


if __name__ == "__main__":
    unittest.main()
