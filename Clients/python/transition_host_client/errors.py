"""Errors raised by the client: JSON-RPC error replies and a host that went away."""

from __future__ import annotations

import enum
from typing import Any, Optional


class ErrorCode(enum.IntEnum):
    """The error codes a host replies with (Protocol.md, "Errors").

    JSON-RPC's reserved codes come first, then the host's application codes (outside the reserved range).
    """

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    REQUEST_CANCELLED = -32800

    PLUGIN_NOT_FOUND = 1001
    PLUGIN_NOT_LOADABLE = 1002
    PLUGIN_ENTRY_MISSING = 1003
    PLUGIN_ABI_INCOMPATIBLE = 1004
    PLUGIN_DESCRIPTOR_INVALID = 1005
    PLUGIN_INIT_FAILED = 1006
    PLUGIN_PATH_NOT_ALLOWED = 1007
    PLUGIN_BUSY = 1008

    UNKNOWN_ANIMATOR = 2001
    AMBIGUOUS_ANIMATOR = 2002
    OPERATION_NOT_SUPPORTED = 2003
    INVALID_VIEW_TREE = 2004
    UNKNOWN_TRANSITION = 2005
    WRONG_STATE = 2006
    TOO_MANY_TRANSITIONS = 2007
    ANIMATOR_MISBEHAVED = 2008
    GESTURE_NOT_RECEIVED = 2011
    NO_SCENE = 2012
    UNKNOWN_SCENE = 2013


class TransitionHostError(Exception):
    """A JSON-RPC error reply: `code`, `message` and the optional `data` exactly as the host sent them.

    `name` is the `ErrorCode` member's name when the code is a known one (``"UNKNOWN_TRANSITION"``), else None.
    """

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.data = data

    @property
    def name(self) -> Optional[str]:
        try:
            return ErrorCode(self.code).name
        except ValueError:
            return None

    def __repr__(self) -> str:
        return f"TransitionHostError(code={self.code!r}, message={self.message!r}, data={self.data!r})"


class TransitionHostExited(ConnectionError):
    """The host closed its output (it exited or crashed) before answering; `returncode` when it is known."""

    def __init__(self, message: str, returncode: Optional[int] = None) -> None:
        super().__init__(message)
        self.returncode = returncode


class ProtocolViolation(Exception):
    """The host wrote something that is not a JSON-RPC message (reported to `on_protocol_error`, never raised
    from a call)."""
