"""Shapes of what the host sends and accepts (Protocol.md), as TypedDicts for editors and type checkers.

Results are plain dicts at run time: a newer host may add members, and the client passes them through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, TypedDict, Union


class Rect(TypedDict):
    x: float
    y: float
    width: float
    height: float


class Point(TypedDict):
    x: float
    y: float


class Size(TypedDict):
    width: float
    height: float


#: `[r, g, b, a]`, each in [0, 1].
Color = List[float]

#: A timing curve: `"linear"`, `"easeIn"`, `"easeOut"`, `"easeInOut"`, `"default"`, `{"bezier": [x1, y1, x2, y2]}` or
#: `{"steps": n, "position": "start"|"end"}` (a spring is not a curve: give finish/cancel/release a velocity).
Curve = Union[str, Dict[str, Any]]


class ViewNode(TypedDict, total=False):
    """A node of the `from`/`to` trees of `transition/start`: `frame` (parent coordinates) or bounds + position."""

    id: str
    frame: Rect
    bounds: Rect
    position: Point
    anchorPoint: Point
    alpha: float
    hidden: bool
    transform: List[float]
    cornerRadius: float
    backgroundColor: Color
    match: str
    zPosition: float
    clipsToBounds: bool
    content: Any
    children: List["ViewNode"]


class Gradient(TypedDict, total=False):
    colors: List[Color]
    locations: Optional[List[float]]
    startPoint: Point
    endPoint: Point


class ViewState(TypedDict, total=False):
    """One entry of a frame's `views`, in drawing order (a delta frame carries `id` and the changed fields)."""

    id: str
    parent: Optional[str]
    frame: Rect
    bounds: Rect
    position: Point
    anchorPoint: Point
    transform: List[float]
    worldTransform: List[float]
    boundingBox: Optional[Rect]
    alpha: float
    opacity: float
    hidden: bool
    zIndex: int
    backgroundColor: Optional[Color]
    cornerRadius: float
    clipsToBounds: bool
    gradient: Optional[Gradient]
    snapshotOf: Optional[str]
    content: Any


class _FrameRequired(TypedDict):
    transition: str
    seq: int
    time: float
    percent: float
    phase: str
    views: List[ViewState]


class Frame(_FrameRequired, total=False):
    """`transition/frame` params, and the result of `transition/sample` (`removed` only in delta frames)."""

    removed: List[str]


class _DidEndRequired(TypedDict):
    transition: str
    completed: bool
    cancelled: bool


class DidEnd(_DidEndRequired, total=False):
    """`transition/didEnd` params, and the result of `transition/wait` (`reason` when it did not just end)."""

    reason: str


class StartResult(TypedDict):
    transition: str
    duration: float


class TickEntry(TypedDict):
    transition: str
    time: float
    percent: float
    phase: str


class TickResult(TypedDict):
    transitions: List[TickEntry]


class ListEntry(TypedDict):
    transition: str
    animator: str
    operation: str
    phase: str
    time: float
    percent: float
    duration: float
    interactive: bool
    clock: str


class ParamInfo(TypedDict, total=False):
    name: str
    type: str
    default: Any
    min: float
    max: float
    options: List[str]
    doc: str


class AnimatorInfo(TypedDict, total=False):
    id: str
    plugin: str
    name: str
    description: str
    operations: List[str]
    params: List[ParamInfo]


class PluginInfo(TypedDict, total=False):
    id: str
    name: str
    version: str
    vendor: str
    description: str
    path: str
    builtin: bool
    generation: int
    animators: List[str]


@dataclass(frozen=True)
class Notification:
    """A message from the host without an id: `transition/frame`, `transition/didEnd`, `window/logMessage`…"""

    method: str
    params: Any

    @property
    def transition(self) -> Optional[str]:
        """The transition id of a `transition/…` notification, else None."""
        if isinstance(self.params, dict):
            value = self.params.get("transition")
            return value if isinstance(value, str) else None
        return None
