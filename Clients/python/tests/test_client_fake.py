"""The client against a scripted stand-in host (tests/fake_host.py): replies, errors, ordering of notifications
against replies, the reader thread's guarantees, crashes and timeouts — cases the real host never produces on
purpose."""

import os
import subprocess
import sys
import threading
import unittest

from transition_host_client import (
    CONTENT_LENGTH,
    ErrorCode,
    TransitionHost,
    TransitionHostError,
    TransitionHostExited,
)

FAKE_HOST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_host.py")
WAIT = 30.0  # a safety bound for waits that should end at once; no test measures time


def fake(**options) -> TransitionHost:
    options.setdefault("timeout", WAIT)
    return TransitionHost(sys.executable, [FAKE_HOST], **options)


class RequestTests(unittest.TestCase):
    def test_result_round_trips_and_ids_are_distinct(self):
        with fake() as host:
            self.assertEqual(host.request("echo", {"a": [1, 2.5, None, "é"]}), {"a": [1, 2.5, None, "é"]})
            self.assertEqual(host.request("echo", [1]), [1])
            self.assertIsNone(host.request("echo"))

    def test_error_reply_raises_with_code_message_and_data(self):
        with fake() as host:
            with self.assertRaises(TransitionHostError) as caught:
                host.request("fail", {"code": 2005, "message": "unknown transition t9", "data": {"transition": "t9"}})
        error = caught.exception
        self.assertEqual((error.code, error.message, error.data), (2005, "unknown transition t9", {"transition": "t9"}))
        self.assertEqual(error.name, "UNKNOWN_TRANSITION")
        self.assertEqual(ErrorCode(error.code), ErrorCode.UNKNOWN_TRANSITION)

    def test_unknown_codes_keep_their_number(self):
        with fake() as host:
            with self.assertRaises(TransitionHostError) as caught:
                host.request("fail", {"code": 42, "message": "m"})
        self.assertEqual(caught.exception.code, 42)
        self.assertIsNone(caught.exception.name)
        self.assertIsNone(caught.exception.data)

    def test_nan_is_refused_before_sending(self):
        with fake() as host:
            with self.assertRaises(ValueError):
                host.request("echo", {"x": float("nan")})
            self.assertEqual(host.request("echo", 1), 1)  # the connection is still fine

    def test_a_reply_written_in_pieces(self):
        with fake() as host:
            self.assertEqual(host.request("split"), "whole")

    def test_concurrent_callers_each_get_their_own_reply(self):
        results = {}
        with fake() as host:

            def call(index):
                results[index] = host.request("echo", {"i": index})

            threads = [threading.Thread(target=call, args=(index,)) for index in range(16)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        self.assertEqual(results, {index: {"i": index} for index in range(16)})

    def test_content_length_framing(self):
        with fake(framing=CONTENT_LENGTH) as host:
            self.assertEqual(host.command[-2:], ["--framing", "content-length"])
            self.assertEqual(host.request("echo", {"s": "é\n"}), {"s": "é\n"})
            self.assertEqual(host.request("burst", {"count": 3}), {"count": 3})
            self.assertEqual(len(host.drain_notifications(method="test/note")), 3)
            self.assertEqual(host.request("split"), "whole")


class NotificationTests(unittest.TestCase):
    def test_notifications_before_a_reply_are_delivered_before_the_call_returns(self):
        seen = []
        with fake(on_notification=seen.append) as host:
            host.request("burst", {"count": 50})
            # No waiting: the reader delivered all 50 before it resolved the reply.
            self.assertEqual([n.params["index"] for n in seen], list(range(50)))
            queued = host.drain_notifications()
            self.assertEqual([n.params["index"] for n in queued], list(range(50)))
            self.assertEqual(host.drain_notifications(), [])

    def test_filters_take_matching_notifications_and_keep_the_rest_in_order(self):
        with fake() as host:
            host.request("burst", {"count": 6})
            odd = host.drain_notifications(transition="t1")
            self.assertEqual([n.params["index"] for n in odd], [1, 3, 5])
            first_even = host.next_notification(WAIT, method="test/note")
            self.assertEqual(first_even.params["index"], 0)
            self.assertEqual(first_even.transition, "t0")
            rest = host.drain_notifications()
            self.assertEqual([n.params["index"] for n in rest], [2, 4])

    def test_iterator_ends_when_the_host_closes_its_output(self):
        host = fake()
        host.request("burst", {"count": 2})
        host.close()
        methods = [n.method for n in host.notifications(WAIT)]
        self.assertEqual(methods, ["test/note", "test/note", "test/bye"])
        self.assertIsNone(host.next_notification(WAIT))

    def test_waiting_for_a_notification_that_never_comes_times_out(self):
        with fake() as host:
            with self.assertRaises(TimeoutError):
                host.next_notification(0.05, method="never/sent")

    def test_a_blocking_call_inside_the_callback_is_refused_instead_of_deadlocking(self):
        errors = []

        def callback(notification):
            if notification.method != "test/note":
                return
            try:
                host.request("echo", 1)
            except RuntimeError as error:
                errors.append(error)

        host = fake(on_notification=callback)
        with host:
            host.request("burst", {"count": 1})
            self.assertEqual(host.request("echo", 2), 2)  # the reader survived
        self.assertEqual(len(errors), 1)
        self.assertIn("reader thread", str(errors[0]))

    def test_a_failing_callback_does_not_stop_replies(self):
        def callback(notification):
            if notification.method == "test/note":
                raise KeyError("boom")

        with fake(on_notification=callback) as host:
            with self.assertLogs("transition_host_client", level="ERROR"):
                host.request("burst", {"count": 2})
            self.assertEqual(host.request("echo", 3), 3)

    def test_without_a_queue_only_the_callback_sees_notifications(self):
        seen = []
        with fake(on_notification=seen.append, queue_notifications=False) as host:
            host.request("burst", {"count": 4})
            self.assertEqual(len(seen), 4)
            self.assertEqual(host.drain_notifications(), [])
            with self.assertRaises(RuntimeError):
                host.next_notification(0)


class RobustnessTests(unittest.TestCase):
    def test_garbage_is_reported_and_the_connection_goes_on(self):
        problems = []
        with fake(on_protocol_error=problems.append) as host:
            self.assertIs(host.request("garbage"), True)
        self.assertEqual(len(problems), 2)
        self.assertIn("not JSON", str(problems[0]))
        self.assertIn("not a JSON-RPC 2.0 message", str(problems[1]))

    def test_a_request_from_the_host_gets_method_not_found(self):
        with fake() as host:
            answer = host.request("ask")
        self.assertEqual(answer["id"], "server-1")
        self.assertEqual(answer["error"]["code"], -32601)

    def test_a_crash_fails_the_waiting_call_and_every_later_one(self):
        host = fake()
        with self.assertRaises(TransitionHostExited):
            host.request("crash", {"status": 3})
        with self.assertRaises(TransitionHostExited):
            host.request("echo", 1)
        self.assertFalse(host.is_connected)
        self.assertEqual(host.close(), 3)

    def test_timeout_cancels_the_request_and_the_late_error_is_dropped(self):
        with fake() as host:
            with self.assertRaises(TimeoutError):
                host.request("hold", timeout=0.05)
            # The host answered the cancelled request with -32800; the client ignored it and goes on.
            self.assertEqual(host.request("echo", "after"), "after")

    def test_close_returns_the_exit_status_and_is_idempotent(self):
        host = fake()
        self.assertEqual(host.close(), 0)
        self.assertEqual(host.close(), 0)
        self.assertEqual(host.returncode, 0)
        with self.assertRaises(TransitionHostExited):
            host.notify("echo")

    def test_captured_stderr(self):
        with fake(stderr="capture") as host:
            host.request("stderr", {"text": "a log line"})
        self.assertIn("a log line", list(host.stderr_lines))

    def test_missing_binary_is_a_clear_error(self):
        with self.assertRaises(FileNotFoundError):
            TransitionHost("/nonexistent/transition-host")
        saved = os.environ.get("TRANSITION_HOST_BIN")
        os.environ["TRANSITION_HOST_BIN"] = "/nonexistent/from-env"
        try:
            with self.assertRaises(FileNotFoundError) as caught:
                TransitionHost()
            self.assertIn("TRANSITION_HOST_BIN", str(caught.exception))
        finally:
            if saved is None:
                del os.environ["TRANSITION_HOST_BIN"]
            else:
                os.environ["TRANSITION_HOST_BIN"] = saved

    def test_terminate_sends_sigterm(self):
        host = fake()
        host.terminate()
        self.assertEqual(host.close(), -15)  # the fake has no SIGTERM handler; subprocess reports -signal
        self.assertIsInstance(host.returncode, int)
        self.assertEqual(subprocess.signal.SIGTERM, 15)


if __name__ == "__main__":
    unittest.main()
