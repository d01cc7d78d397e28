"""Typed results, consistently: every request helper returns its method's whole result object as Protocol.md
defines it (never a member picked out of it), declared as a TypedDict of `transition_host_client.models` (None
where the protocol answers null); every notification helper returns None. Against the real host, each result has
the declared shape, member by member; and the README's example of each method runs as written (doctest).
"""

import doctest
import os
import re
import typing
import unittest

from transition_host_client import HOST_BIN_VARIABLE, TransitionHost

from .shapes import is_typed_dict, mismatch
from .support import CONTAINER, FROM_TREE, TO_TREE, WAIT, gestures_plugin, host_binary, minimal_plugin

HERE = os.path.dirname(os.path.abspath(__file__))

#: Every request helper and the protocol method it sends.
REQUEST_HELPERS = {
    "initialize": "initialize",
    "shutdown": "shutdown",
    "plugins_list": "plugins/list",
    "plugins_load": "plugins/load",
    "plugins_unload": "plugins/unload",
    "plugins_reload": "plugins/reload",
    "animators_list": "animators/list",
    "transition_start": "transition/start",
    "transition_update": "transition/update",
    "transition_pause": "transition/pause",
    "transition_finish": "transition/finish",
    "transition_cancel": "transition/cancel",
    "transition_release": "transition/release",
    "transition_reverse": "transition/reverse",
    "transition_gesture": "transition/gesture",
    "transition_sample": "transition/sample",
    "transition_tick": "transition/tick",
    "transition_list": "transition/list",
    "transition_wait": "transition/wait",
    "scene_open": "scene/open",
    "scene_gesture": "scene/gesture",
    "scene_close": "scene/close",
}
#: Helpers that send a notification (no reply).
NOTIFICATION_HELPERS = ["initialized", "exit", "cancel_request"]
#: Methods whose result is null.
NULL_RESULTS = {"shutdown", "plugins_unload", "scene_close"}


def declared_result(name):
    return typing.get_type_hints(getattr(TransitionHost, name))["return"]


class DeclaredResultTests(unittest.TestCase):
    def test_every_request_helper_declares_its_whole_result_object(self):
        for name in REQUEST_HELPERS:
            with self.subTest(helper=name):
                declared = declared_result(name)
                if name in NULL_RESULTS:
                    self.assertIs(declared, type(None))
                elif name in ("transition_update", "transition_gesture"):
                    # A request, or (notify=True) a notification.
                    options = typing.get_args(declared)
                    self.assertEqual(len(options), 2)
                    self.assertIn(type(None), options)
                    self.assertTrue(any(is_typed_dict(option) for option in options))
                else:
                    self.assertTrue(is_typed_dict(declared), f"{name} returns {declared!r}, not a result TypedDict")

    def test_notification_helpers_return_nothing(self):
        for name in NOTIFICATION_HELPERS:
            with self.subTest(helper=name):
                self.assertIs(declared_result(name), type(None))


class ResultShapeTests(unittest.TestCase):
    def check(self, client_result, helper):
        reason = mismatch(client_result, declared_result(helper), helper + "()")
        self.assertIsNone(reason, reason)
        return client_result

    def test_every_result_has_the_shape_its_helper_declares(self):
        with TransitionHost(host_binary(), ["--allow-any-plugin-path"], timeout=WAIT, stderr="capture") as client:
            self.check(client.initialize({"name": "shape test"}), "initialize")
            self.assertIsNone(client.initialized())
            plugin = self.check(client.plugins_load(minimal_plugin()), "plugins_load")
            self.check(client.plugins_list(), "plugins_list")
            self.check(client.plugins_reload(plugin["id"]), "plugins_reload")
            self.check(client.animators_list(), "animators_list")
            self.check(client.animators_list(plugin=plugin["id"]), "animators_list")

            def start():
                started = client.transition_start(
                    "fade", "present", FROM_TREE, TO_TREE, container=CONTAINER, interactive=True, clock="manual",
                    frames="none",
                )
                return self.check(started, "transition_start")["transition"]

            first = start()
            self.check(client.transition_sample(first, percent=0.5), "transition_sample")
            self.check(client.transition_update(first, 0.3), "transition_update")
            self.assertIsNone(client.transition_update(first, 0.4, notify=True))
            self.check(client.transition_pause(first), "transition_pause")
            released = self.check(client.transition_release(first, -1.0), "transition_release")
            self.assertEqual(released["decision"], "cancel")
            self.check(client.transition_reverse(first), "transition_reverse")
            self.check(client.transition_tick(0.01, transition=first), "transition_tick")
            self.check(client.transition_list(), "transition_list")
            second, third = start(), start()
            client.transition_update(second, 0.5)
            client.transition_update(third, 0.5)
            self.check(client.transition_finish(second, velocity=0.5), "transition_finish")
            self.check(client.transition_cancel(third), "transition_cancel")
            client.plugins_load(gestures_plugin())
            pulled = client.transition_start(
                "com.example.test.gestures/pull", "present", FROM_TREE, TO_TREE, container=CONTAINER,
                clock="manual", frames="none",
            )["transition"]
            self.check(client.transition_gesture(pulled, "began", (10, 10)), "transition_gesture")
            self.assertIsNone(client.transition_gesture(pulled, "cancelled", (10, 10), notify=True))
            self.assertIsNone(client.cancel_request(99))
            client.transition_tick(5)
            for transition in (first, second, third, pulled):
                self.check(client.transition_wait(transition), "transition_wait")
            self.assertEqual(client.transition_list(), {"transitions": []})
            self.assertIsNone(self.check(client.plugins_unload(plugin["id"]), "plugins_unload"))
            self.assertIsNone(self.check(client.shutdown(), "shutdown"))
            self.assertIsNone(client.exit())


class ReadmeExampleTests(unittest.TestCase):
    def test_the_readme_examples_run_as_written(self):
        # The examples start the host as a user would, from $TRANSITION_HOST_BIN.
        os.environ.setdefault(HOST_BIN_VARIABLE, host_binary())
        path = os.path.join(HERE, "..", "README.md")
        with open(path, encoding="utf-8") as handle:
            # A code fence ends an example's expected output, as a blank line does for doctest.
            text = re.sub(r"^```.*$", "", handle.read(), flags=re.M)
        test = doctest.DocTestParser().get_doctest(text, {}, "README.md", path, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        results = runner.summarize(verbose=False)
        self.assertGreater(results.attempted, 20)
        self.assertEqual(results.failed, 0, "README.md examples failed (the doctest output above says where)")


if __name__ == "__main__":
    unittest.main()
