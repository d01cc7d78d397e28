"""A stdlib-only Python client for transition-host (JSON-RPC 2.0 over the host's stdin/stdout).

    from transition_host_client import TransitionHost

    with TransitionHost() as host:   # $TRANSITION_HOST_BIN, or transition-host on PATH
        print([a["id"] for a in host.animators_list()])

See Clients/python/README.md and Protocol.md for the methods and their shapes.
"""

from .client import HOST_BIN_VARIABLE, NotificationCallback, TransitionHost, find_host_binary
from .errors import ErrorCode, ProtocolViolation, TransitionHostError, TransitionHostExited
from .framing import CONTENT_LENGTH, NEWLINE
from .models import (
    AnimatorInfo,
    DidEnd,
    Frame,
    ListEntry,
    Notification,
    ParamInfo,
    PluginInfo,
    StartResult,
    TickResult,
    ViewNode,
    ViewState,
)

__version__ = "0.1.0"

__all__ = [
    "AnimatorInfo",
    "CONTENT_LENGTH",
    "DidEnd",
    "ErrorCode",
    "Frame",
    "HOST_BIN_VARIABLE",
    "ListEntry",
    "NEWLINE",
    "Notification",
    "NotificationCallback",
    "ParamInfo",
    "PluginInfo",
    "ProtocolViolation",
    "StartResult",
    "TickResult",
    "TransitionHost",
    "TransitionHostError",
    "TransitionHostExited",
    "ViewNode",
    "ViewState",
    "find_host_binary",
]
