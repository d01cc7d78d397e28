"""A stdlib-only Python client for transition-host (JSON-RPC 2.0 over the host's stdin/stdout).

    from transition_host_client import TransitionHost

    with TransitionHost() as host:   # $TRANSITION_HOST_BIN, or transition-host on PATH
        print([a["id"] for a in host.animators_list()["animators"]])

See Clients/python/README.md and Protocol.md for the methods and their shapes.
"""

from .client import HOST_BIN_VARIABLE, NotificationCallback, TransitionHost, find_host_binary
from .errors import ErrorCode, ProtocolViolation, TransitionHostError, TransitionHostExited
from .framing import CONTENT_LENGTH, NEWLINE
from .models import (
    AnimatorInfo,
    AnimatorsListResult,
    DidEnd,
    ErrorObject,
    Frame,
    GestureResult,
    SceneDidClose,
    SceneGestureResult,
    SceneOpenResult,
    SceneTransitionStarted,
    InitializeResult,
    ListEntry,
    Notification,
    ParamInfo,
    PluginInfo,
    PluginsListResult,
    ReleaseResult,
    SampleResult,
    StartResult,
    TickEntry,
    TickResult,
    TransitionListResult,
    TransitionState,
    ViewNode,
    ViewState,
)

__version__ = "0.1.0"

__all__ = [
    "AnimatorInfo",
    "AnimatorsListResult",
    "CONTENT_LENGTH",
    "DidEnd",
    "ErrorCode",
    "ErrorObject",
    "Frame",
    "GestureResult",
    "SceneDidClose",
    "SceneGestureResult",
    "SceneOpenResult",
    "SceneTransitionStarted",
    "HOST_BIN_VARIABLE",
    "InitializeResult",
    "ListEntry",
    "NEWLINE",
    "Notification",
    "NotificationCallback",
    "ParamInfo",
    "PluginInfo",
    "PluginsListResult",
    "ProtocolViolation",
    "ReleaseResult",
    "SampleResult",
    "StartResult",
    "TickEntry",
    "TickResult",
    "TransitionHost",
    "TransitionHostError",
    "TransitionHostExited",
    "TransitionListResult",
    "TransitionState",
    "ViewNode",
    "ViewState",
    "find_host_binary",
]
