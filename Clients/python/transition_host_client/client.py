"""The client: spawns `transition-host`, sends requests, and delivers replies and notifications.

Threads: one reader thread reads the host's stdout from the start to the end, so the host never blocks on a
full pipe whatever the caller does. It resolves replies and delivers notifications (the callback first, then the
queue) in wire order, so every notification the host wrote before a reply has been delivered by the time the call
that waited for that reply returns (`transition/tick` emits its frames before replying: after `tick()` they are
queued). Calls block the calling thread only; they are safe from several threads at once.
"""

from __future__ import annotations

import collections
import itertools
import json
import logging
import os
import shutil
import subprocess
import threading
import time as _time
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import framing as _framing
from .errors import ErrorCode, ProtocolViolation, TransitionHostError, TransitionHostExited
from .models import (
    AnimatorsListResult,
    Curve,
    DidEnd,
    GestureResult,
    InitializeResult,
    Notification,
    PluginInfo,
    PluginsListResult,
    ReleaseResult,
    SampleResult,
    SceneDidClose,
    SceneGestureResult,
    SceneOpenResult,
    SceneTransitionStarted,
    StartResult,
    TickResult,
    TransitionListResult,
    TransitionState,
    ViewNode,
)

__all__ = ["TransitionHost", "find_host_binary", "HOST_BIN_VARIABLE"]

#: The environment variable naming the host executable when no path is given.
HOST_BIN_VARIABLE = "TRANSITION_HOST_BIN"

_log = logging.getLogger("transition_host_client")

_Container = Union[Mapping[str, float], Tuple[float, float], Sequence[float]]
NotificationCallback = Callable[[Notification], None]


def find_host_binary(binary: Optional[Union[str, os.PathLike]] = None) -> str:
    """The host executable: `binary` if given, else `$TRANSITION_HOST_BIN`, else `transition-host` on PATH.

    Raises FileNotFoundError naming what was tried.
    """
    if binary is not None:
        path = os.fspath(binary)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"transition-host binary not found at {path!r}")
        return path
    from_env = os.environ.get(HOST_BIN_VARIABLE)
    if from_env:
        if not os.path.isfile(from_env):
            raise FileNotFoundError(f"${HOST_BIN_VARIABLE} names {from_env!r}, which is not a file")
        return from_env
    on_path = shutil.which("transition-host")
    if on_path:
        return on_path
    raise FileNotFoundError(
        f"no transition-host binary: pass its path, set ${HOST_BIN_VARIABLE}, or put transition-host on PATH"
    )


class _Pending:
    """A request waiting for its reply."""

    __slots__ = ("event", "result", "error")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.result: Any = None
        self.error: Optional[BaseException] = None


class TransitionHost:
    """A running `transition-host` process and a JSON-RPC 2.0 connection to it over its stdin/stdout.

    Typical use::

        with TransitionHost() as host:            # binary from $TRANSITION_HOST_BIN or PATH
            started = host.transition_start("pull-down", "present", from_tree, to_tree,
                                            container=(390, 844), clock="manual")
            host.transition_tick(1 / 60, transition=started["transition"])
            frames = host.drain_notifications(method="transition/frame")

    Leaving the `with` block closes the host's stdin (the host ends what is left, as Protocol.md says for end of
    input) and waits for it to exit.

    Args:
        binary: the executable; default `find_host_binary()`.
        args: extra command-line arguments (`--plugin-dir DIR`, `--allow-any-plugin-path`, …).
        framing: ``"newline"`` (default) or ``"content-length"`` (passed to the host as `--framing`).
        on_notification: called on the reader thread with every notification, before it is queued. It must not
            wait for a reply (that would wait for the very thread it runs on: such a call raises RuntimeError);
            sending notifications from it is fine.
        queue_notifications: keep notifications for `next_notification()`/`notifications()`. Turn it off when a
            callback consumes everything, so a long-running host does not fill memory with frames.
        stderr: where the host's log lines go: None (inherit), a file object or fd, `subprocess.DEVNULL`, or
            ``"capture"`` to keep the last lines in `stderr_lines`.
        timeout: default seconds a call waits for its reply (None: no limit; a host that exits ends every wait).
        env, cwd: for the process.
        on_protocol_error: called with a `ProtocolViolation` when the host writes something that is not a
            JSON-RPC message (default: logged).
    """

    def __init__(
        self,
        binary: Optional[Union[str, os.PathLike]] = None,
        args: Iterable[str] = (),
        *,
        framing: str = _framing.NEWLINE,
        on_notification: Optional[NotificationCallback] = None,
        queue_notifications: bool = True,
        stderr: Any = None,
        timeout: Optional[float] = None,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[Union[str, os.PathLike]] = None,
        on_protocol_error: Optional[Callable[[ProtocolViolation], None]] = None,
    ) -> None:
        if framing not in _framing.FRAMINGS:
            raise ValueError(f"unknown framing {framing!r}; expected one of {_framing.FRAMINGS}")
        self.binary = find_host_binary(binary)
        self.framing = framing
        self.timeout = timeout
        self.on_notification = on_notification
        self.on_protocol_error = on_protocol_error
        self._queue_notifications = queue_notifications

        command = [self.binary, *args]
        if framing != _framing.NEWLINE:
            command += ["--framing", framing]
        self.command: List[str] = command

        capture = isinstance(stderr, str) and stderr == "capture"
        self.stderr_lines: Deque[str] = collections.deque(maxlen=500)
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if capture else stderr,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            bufsize=0,
        )

        self._ids = itertools.count(1)
        self._write_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._pending: Dict[Any, _Pending] = {}
        # Ids of requests that timed out: their late replies are dropped quietly.
        self._abandoned: set = set()
        self._queue: Deque[Notification] = collections.deque()
        self._queue_changed = threading.Condition(self._state_lock)
        self._eof = False
        self._closing = False

        self._reader = threading.Thread(target=self._read_loop, name="transition-host-reader", daemon=True)
        self._reader.start()
        self._stderr_reader: Optional[threading.Thread] = None
        if capture:
            self._stderr_reader = threading.Thread(target=self._read_stderr, name="transition-host-stderr", daemon=True)
            self._stderr_reader.start()

    # MARK: Process

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once the host has exited, else None."""
        return self._process.poll()

    @property
    def is_connected(self) -> bool:
        """True until the host closes its output."""
        with self._state_lock:
            return not self._eof

    def close(self, timeout: float = 10.0) -> int:
        """Closes the host's stdin and waits for it to exit (SIGTERM after `timeout` s, SIGKILL 5 s later).

        Returns the exit status. Safe to call more than once.
        """
        self._closing = True
        with self._write_lock:
            stdin = self._process.stdin
            if stdin is not None and not stdin.closed:
                try:
                    stdin.close()
                except OSError:
                    pass
        try:
            code = self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._process.terminate()
            try:
                code = self._process.wait(timeout=5.0)
            except subprocess.TimeoutExpired:
                self._process.kill()
                code = self._process.wait()
        self._reader.join(timeout=5.0)
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout=5.0)
        for stream, reader in ((self._process.stdout, self._reader), (self._process.stderr, self._stderr_reader)):
            if stream is not None and (reader is None or not reader.is_alive()):
                stream.close()
        return code

    def terminate(self) -> None:
        """Sends SIGTERM: the host ends every transition cancelled (reason "terminated") and exits 0."""
        if self._process.poll() is None:
            self._process.terminate()

    def __enter__(self) -> "TransitionHost":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # MARK: JSON-RPC

    def request(self, method: str, params: Any = None, *, timeout: Optional[float] = None) -> Any:
        """Sends a request and returns its result.

        Raises `TransitionHostError` for an error reply, `TransitionHostExited` when the host goes away first,
        `TimeoutError` after `timeout` seconds (default: the client's `timeout`); a timed-out request is cancelled
        with `$/cancelRequest` and its late reply ignored.
        """
        if threading.get_ident() == self._reader.ident:
            raise RuntimeError(
                f"{method}: cannot wait for a reply on the reader thread (inside on_notification); "
                "send a notification or hand the work to another thread"
            )
        request_id = next(self._ids)
        pending = _Pending()
        with self._state_lock:
            if self._eof:
                raise TransitionHostExited(f"{method}: the host has exited", self._process.poll())
            self._pending[request_id] = pending
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        try:
            self._send(message)
        except BaseException:
            with self._state_lock:
                self._pending.pop(request_id, None)
            raise
        limit = self.timeout if timeout is None else timeout
        if not pending.event.wait(limit):
            with self._state_lock:
                if self._pending.pop(request_id, None) is not None:
                    self._abandoned.add(request_id)
            try:
                self.notify("$/cancelRequest", {"id": request_id})
            except TransitionHostExited:
                pass
            raise TimeoutError(f"{method}: no reply within {limit} s")
        if pending.error is not None:
            raise pending.error
        return pending.result

    def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (no reply)."""
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._send(message)

    def send_raw(self, body: bytes) -> None:
        """Writes one already-serialized message, framed (for tests of the host's error handling)."""
        self._write(_framing.encode(body, self.framing))

    def _send(self, message: Dict[str, Any]) -> None:
        # allow_nan=False: the host rejects NaN/Infinity, so refuse them here with a clear ValueError instead.
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
        self._write(_framing.encode(body, self.framing))

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            stdin = self._process.stdin
            if stdin is None or stdin.closed:
                raise TransitionHostExited("the host's input is closed", self._process.poll())
            try:
                stdin.write(data)
                stdin.flush()
            except (BrokenPipeError, ConnectionResetError, ValueError) as error:
                raise TransitionHostExited(f"cannot write to the host: {error}", self._process.poll()) from None

    # MARK: Notifications

    def next_notification(
        self,
        timeout: Optional[float] = None,
        *,
        method: Optional[str] = None,
        transition: Optional[str] = None,
        scene: Optional[str] = None,
    ) -> Optional[Notification]:
        """Removes and returns the first queued notification that matches `method`/`transition`/`scene` (the
        params' `scene` member of a `scene/…` notification), waiting for one.

        Notifications that do not match stay queued, in order. Returns None once the host has closed its output
        and nothing queued matches; raises TimeoutError after `timeout` seconds.
        """
        if not self._queue_notifications:
            raise RuntimeError("this client was created with queue_notifications=False")
        deadline = None if timeout is None else _time.monotonic() + timeout
        with self._queue_changed:
            while True:
                for index, item in enumerate(self._queue):
                    if _matches(item, method, transition, scene):
                        del self._queue[index]
                        return item
                if self._eof:
                    return None
                remaining = None if deadline is None else deadline - _time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(f"no notification{_describe(method, transition)} within {timeout} s")
                self._queue_changed.wait(remaining)

    def notifications(
        self,
        timeout: Optional[float] = None,
        *,
        method: Optional[str] = None,
        transition: Optional[str] = None,
    ) -> Iterator[Notification]:
        """Iterates over matching notifications as they arrive until the host closes its output.

        `timeout` bounds the wait for each one (TimeoutError).
        """
        while True:
            item = self.next_notification(timeout, method=method, transition=transition)
            if item is None:
                return
            yield item

    def drain_notifications(
        self, *, method: Optional[str] = None, transition: Optional[str] = None
    ) -> List[Notification]:
        """Removes and returns every queued notification that matches, without waiting."""
        with self._queue_changed:
            taken = [item for item in self._queue if _matches(item, method, transition)]
            if taken:
                kept = [item for item in self._queue if not _matches(item, method, transition)]
                self._queue.clear()
                self._queue.extend(kept)
            return taken

    # MARK: Reader thread

    def _read_loop(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for body in _framing.reader(stdout, self.framing):
                self._handle_body(body)
        except _framing.FramingError as error:
            self._protocol_error(ProtocolViolation(str(error)))
        except Exception:  # the reader must end cleanly whatever happens, so that waits end too
            _log.exception("transition-host reader failed")
        finally:
            self._finish()

    def _finish(self) -> None:
        code = self._process.poll()
        with self._queue_changed:
            self._eof = True
            pending = list(self._pending.values())
            self._pending.clear()
            self._queue_changed.notify_all()
        for item in pending:
            item.error = TransitionHostExited(
                "the host closed its output before replying" + (f" (exit status {code})" if code is not None else ""),
                code,
            )
            item.event.set()

    def _handle_body(self, body: bytes) -> None:
        try:
            message = json.loads(body)
        except ValueError as error:
            self._protocol_error(ProtocolViolation(f"not JSON: {error}: {body[:200]!r}"))
            return
        for item in message if isinstance(message, list) else [message]:
            self._handle_message(item)

    def _handle_message(self, message: Any) -> None:
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self._protocol_error(ProtocolViolation(f"not a JSON-RPC 2.0 message: {str(message)[:200]}"))
            return
        if "method" in message:
            if "id" in message:
                # The host sends no requests; answer one anyway, as JSON-RPC requires.
                try:
                    self._send(
                        {
                            "jsonrpc": "2.0",
                            "id": message["id"],
                            "error": {"code": ErrorCode.METHOD_NOT_FOUND, "message": "the client serves no methods"},
                        }
                    )
                except TransitionHostExited:
                    pass
                return
            self._deliver(Notification(str(message["method"]), message.get("params")))
            return
        request_id = message.get("id")
        with self._state_lock:
            pending = self._pending.pop(request_id, None) if _hashable(request_id) else None
            late = pending is None and _hashable(request_id) and request_id in self._abandoned
            if late:
                self._abandoned.discard(request_id)
        if pending is None:
            if "error" in message and not late:
                # An error about no request of ours (a framing error, id null): report it.
                error = message["error"] if isinstance(message["error"], dict) else {}
                self._protocol_error(
                    ProtocolViolation(f"error reply without a pending request: {error.get('code')} {error.get('message')}")
                )
            return  # a late reply to a request that timed out (or an unknown id, reported above if an error)
        if "error" in message:
            error = message["error"] if isinstance(message["error"], dict) else {}
            pending.error = TransitionHostError(
                int(error.get("code", ErrorCode.INTERNAL_ERROR)), str(error.get("message", "")), error.get("data")
            )
        else:
            pending.result = message.get("result")
        pending.event.set()

    def _deliver(self, notification: Notification) -> None:
        callback = self.on_notification
        if callback is not None:
            try:
                callback(notification)
            except Exception:  # a failing callback must not stop the reader (and with it every reply)
                _log.exception("on_notification raised for %s", notification.method)
        if self._queue_notifications:
            with self._queue_changed:
                self._queue.append(notification)
                self._queue_changed.notify_all()

    def _protocol_error(self, error: ProtocolViolation) -> None:
        if self.on_protocol_error is not None:
            try:
                self.on_protocol_error(error)
            except Exception:
                _log.exception("on_protocol_error raised")
        else:
            _log.warning("transition-host: %s", error)

    def _read_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        for line in iter(stream.readline, b""):
            self.stderr_lines.append(line.decode("utf-8", "replace").rstrip("\n"))

    # MARK: Lifecycle methods
    #
    # Every request helper returns its method's whole result object as Protocol.md defines it, typed by a TypedDict
    # of `models` (None where the protocol answers null); notification helpers return None.

    def initialize(self, client_info: Optional[Mapping[str, Any]] = None, **extra: Any) -> InitializeResult:
        """`initialize` (optional): the host's `serverInfo`, `protocolVersion`, `pluginABI` and `capabilities`."""
        params: Dict[str, Any] = dict(extra)
        if client_info is not None:
            params["clientInfo"] = dict(client_info)
        return self.request("initialize", params)

    def initialized(self) -> None:
        """The `initialized` notification, as LSP clients send after `initialize` (the host ignores it)."""
        self.notify("initialized", {})

    def shutdown(self) -> None:
        """`shutdown`: the host answers null and refuses later requests (−32600) until `exit`."""
        self.request("shutdown")

    def exit(self) -> None:
        """The `exit` notification: the host exits 0 (with or without `shutdown` first)."""
        self.notify("exit")

    def cancel_request(self, request_id: Any) -> None:
        """`$/cancelRequest {id}`: a waiting request (such as `transition/wait`) then fails with −32800."""
        self.notify("$/cancelRequest", {"id": request_id})

    # MARK: Plugins and animators

    def plugins_list(self) -> PluginsListResult:
        """`plugins/list`: `{"plugins": [...]}`, every loaded plugin in load order."""
        return self.request("plugins/list")

    def plugins_load(self, path: Union[str, os.PathLike]) -> PluginInfo:
        """`plugins/load {path}`: loads a plugin library (errors 1001–1007)."""
        return self.request("plugins/load", {"path": os.fspath(path)})

    def plugins_unload(self, plugin: str, *, force: Optional[bool] = None) -> None:
        """`plugins/unload {plugin, force?}` (1008 while one of its transitions runs, unless `force`: they then end
        cancelled with reason "pluginUnloaded")."""
        self.request("plugins/unload", _params(plugin=plugin, force=force))

    def plugins_reload(self, plugin: str) -> PluginInfo:
        """`plugins/reload {plugin}`: a new generation; running transitions keep the old code."""
        return self.request("plugins/reload", {"plugin": plugin})

    def animators_list(self, plugin: Optional[str] = None) -> AnimatorsListResult:
        """`animators/list`: `{"animators": [...]}`, every animator (of one plugin when `plugin` is given) with its
        parameter metadata."""
        return self.request("animators/list", _params(plugin=plugin))

    # MARK: Transitions

    def transition_start(
        self,
        animator: str,
        operation: str,
        from_tree: ViewNode,
        to_tree: ViewNode,
        *,
        container: _Container,
        params: Optional[Mapping[str, Any]] = None,
        interactive: Optional[bool] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        frames: Optional[str] = None,
        completion_speed: Optional[float] = None,
        completion_curve: Optional[Curve] = None,
    ) -> StartResult:
        """`transition/start`: `{"transition": "t1", "duration": seconds}`.

        `container` is `{"width", "height"}` or a `(width, height)` pair; `from_tree`/`to_tree` are the `from` and
        `to` view trees. The first frame (seq 0) follows the reply unless `frames="none"`.
        """
        return self.request(
            "transition/start",
            _params(
                animator=animator,
                operation=operation,
                container=_container(container),
                **{"from": from_tree, "to": to_tree},
                params=dict(params) if params is not None else None,
                interactive=interactive,
                clock=clock,
                fps=fps,
                frames=frames,
                completionSpeed=completion_speed,
                completionCurve=completion_curve,
            ),
        )

    def transition_update(self, transition: str, percent: float, *, notify: bool = False) -> Optional[TransitionState]:
        """`transition/update {transition, percent}`: holds the transition at `percent` (clamped to [0, 1]).

        Returns the state after the call (`percent` as applied); with `notify=True` it is sent as a notification
        instead (queued ones coalesce to the latest in the host) and returns None.
        """
        params = {"transition": transition, "percent": percent}
        if notify:
            self.notify("transition/update", params)
            return None
        return self.request("transition/update", params)

    def transition_pause(self, transition: str) -> TransitionState:
        """`transition/pause`: holds a moving transition where it is."""
        return self.request("transition/pause", {"transition": transition})

    def transition_finish(
        self,
        transition: str,
        *,
        velocity: Optional[float] = None,
        completion_speed: Optional[float] = None,
        completion_curve: Optional[Curve] = None,
    ) -> TransitionState:
        """`transition/finish`: runs to the end (velocity in percent per second, positive toward the end)."""
        return self.request(
            "transition/finish",
            _params(
                transition=transition,
                velocity=velocity,
                completionSpeed=completion_speed,
                completionCurve=completion_curve,
            ),
        )

    def transition_cancel(
        self,
        transition: str,
        *,
        velocity: Optional[float] = None,
        completion_speed: Optional[float] = None,
        completion_curve: Optional[Curve] = None,
    ) -> TransitionState:
        """`transition/cancel`: runs back to the start and ends cancelled."""
        return self.request(
            "transition/cancel",
            _params(
                transition=transition,
                velocity=velocity,
                completionSpeed=completion_speed,
                completionCurve=completion_curve,
            ),
        )

    def transition_release(self, transition: str, velocity: Optional[float] = None) -> ReleaseResult:
        """`transition/release {transition, velocity?}`: lets go of a held transition; the state after it and the
        `decision`, "finish" or "cancel".

        The rule: velocity > 0.25/s finishes, < −0.25/s cancels, otherwise it finishes iff percent ≥ 0.5.
        """
        return self.request("transition/release", _params(transition=transition, velocity=velocity))

    def transition_gesture(
        self,
        transition: str,
        state: str,
        location: Tuple[float, float],
        *,
        translation: Optional[Tuple[float, float]] = None,
        velocity: Optional[Tuple[float, float]] = None,
        notify: bool = False,
    ) -> Optional[GestureResult]:
        """`transition/gesture`: one pan sample (`state` "began", "changed", "ended" or "cancelled"; points as
        (x, y) in container points, velocity in points per second) for the transition's interaction controller,
        whose gesture handlers then move the transition. With `notify=True` it is sent as a notification (never
        coalesced) and returns None.
        """

        def point(value: Optional[Tuple[float, float]]) -> Optional[Dict[str, float]]:
            return None if value is None else {"x": value[0], "y": value[1]}

        params = _params(
            transition=transition,
            state=state,
            location=point(location),
            translation=point(translation),
            velocity=point(velocity),
        )
        if notify:
            self.notify("transition/gesture", params)
            return None
        return self.request("transition/gesture", params)

    def transition_reverse(self, transition: str) -> TransitionState:
        """`transition/reverse`: turns a moving transition around."""
        return self.request("transition/reverse", {"transition": transition})

    def transition_sample(
        self,
        transition: str,
        *,
        time: Optional[float] = None,
        percent: Optional[float] = None,
        frames: Optional[str] = None,
    ) -> SampleResult:
        """`transition/sample {transition, time | percent}`: a full frame at that point (no `seq`), without side
        effects."""
        if (time is None) == (percent is None):
            raise ValueError("transition_sample needs exactly one of time and percent")
        return self.request(
            "transition/sample", _params(transition=transition, time=time, percent=percent, frames=frames)
        )

    def transition_tick(self, dt: float, *, transition: Optional[str] = None) -> TickResult:
        """`transition/tick {dt, transition?}`: advances manual-clock transitions (all when `transition` is None).

        Their frames and didEnd notifications are queued (and the callback has seen them) when this returns.
        """
        return self.request("transition/tick", _params(transition=transition, dt=dt))

    def transition_list(self) -> TransitionListResult:
        """`transition/list`: `{"transitions": [...]}`, every transition that has not ended, oldest first."""
        return self.request("transition/list")

    def transition_wait(self, transition: str, *, timeout: Optional[float] = None) -> DidEnd:
        """`transition/wait`: blocks until the transition ends (at once if it already has); its didEnd summary.

        On `timeout` the request is cancelled with `$/cancelRequest` and TimeoutError raised.
        """
        return self.request("transition/wait", {"transition": transition}, timeout=timeout)

    # MARK: Scenes

    def scene_open(
        self,
        animator: str,
        root: ViewNode,
        *,
        container: _Container,
        storyboard: Optional[Mapping[str, ViewNode]] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        frames: Optional[str] = None,
        precision: Optional[float] = None,
    ) -> SceneOpenResult:
        """`scene/open`: the app's view controllers at rest, for gestures before any transition;
        `{"scene": "s1", "animator": ...}`.

        `root` is the root controller's tree, `storyboard` the trees by storyboard identifier; `clock`, `fps`,
        `frames` and `precision` say how the transitions the scene starts stream (as in `transition_start`).
        """
        return self.request(
            "scene/open",
            _params(
                animator=animator,
                container=_container(container),
                root=root,
                storyboard=dict(storyboard) if storyboard is not None else None,
                clock=clock,
                fps=fps,
                frames=frames,
                precision=precision,
            ),
        )

    def scene_gesture(
        self,
        scene: str,
        state: str,
        location: Tuple[float, float],
        *,
        translation: Optional[Tuple[float, float]] = None,
        velocity: Optional[Tuple[float, float]] = None,
    ) -> SceneGestureResult:
        """`scene/gesture`: one pan sample for the scene's view controllers (as `transition_gesture`);
        `{"recognizers": n}`, with `"transition"` when a handler started one (`scene/transitionStarted` follows).
        """

        def point(value: Optional[Tuple[float, float]]) -> Optional[Dict[str, float]]:
            return None if value is None else {"x": value[0], "y": value[1]}

        return self.request(
            "scene/gesture",
            _params(
                scene=scene,
                state=state,
                location=point(location),
                translation=point(translation),
                velocity=point(velocity),
            ),
        )

    def scene_close(self, scene: str) -> None:
        """`scene/close`: ends the scene after the samples sent before it (a transition it started runs on)."""
        self.request("scene/close", {"scene": scene})

    def scene_transition_started(self, scene: str, *, timeout: Optional[float] = 30) -> SceneTransitionStarted:
        """Waits for the scene's next `scene/transitionStarted` notification and returns its params."""
        return _params_of(self.next_notification(timeout, method="scene/transitionStarted", scene=scene))

    def scene_did_close(self, scene: str, *, timeout: Optional[float] = 30) -> SceneDidClose:
        """Waits for the scene's `scene/didClose` notification (its plugin worker died) and returns its params."""
        return _params_of(self.next_notification(timeout, method="scene/didClose", scene=scene))


def _params_of(notification: Optional[Notification]) -> Any:
    """A waited-for notification's params; TransitionHostExited when the host's output ended first."""
    if notification is None:
        raise TransitionHostExited("the host closed its output before the notification came", None)
    return notification.params


def _params(**members: Any) -> Dict[str, Any]:
    """The members that are not None."""
    return {name: value for name, value in members.items() if value is not None}


def _container(container: _Container) -> Dict[str, float]:
    if isinstance(container, Mapping):
        return {"width": container["width"], "height": container["height"]}
    width, height = container
    return {"width": width, "height": height}


def _matches(item: Notification, method: Optional[str], transition: Optional[str], scene: Optional[str] = None) -> bool:
    if method is not None and item.method != method:
        return False
    if transition is not None and item.transition != transition:
        return False
    if scene is not None and not (isinstance(item.params, dict) and item.params.get("scene") == scene):
        return False
    return True


def _describe(method: Optional[str], transition: Optional[str]) -> str:
    parts = []
    if method is not None:
        parts.append(method)
    if transition is not None:
        parts.append(f"for {transition}")
    return (" " + " ".join(parts)) if parts else ""


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
