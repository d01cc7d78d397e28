"""Shapes of what the host sends and accepts (Protocol.md), as TypedDicts for editors and type checkers.

Every request helper of `TransitionHost` returns its method's whole result object, exactly as Protocol.md defines
it, typed by one of the `...Result` TypedDicts below (or None where the protocol answers `null`); notification
params use the same types (`Frame`, `DidEnd`). Results are plain dicts at run time: a newer host may add members,
and the client passes them through.
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


class SampleResult(TypedDict):
    """The result of `transition/sample`: a full frame at that moment, without `seq` (no frame was sent)."""

    transition: str
    time: float
    percent: float
    phase: str
    views: List[ViewState]


class _FrameRequired(SampleResult):
    seq: int


class Frame(_FrameRequired, total=False):
    """`transition/frame` params (`delta` and `removed` only in delta frames)."""

    delta: bool
    removed: List[str]


class _ErrorRequired(TypedDict):
    code: int
    message: str


class ErrorObject(_ErrorRequired, total=False):
    """A JSON-RPC error object, as `transition/didEnd` carries it for a failed transition."""

    data: Any


class _DidEndRequired(TypedDict):
    transition: str
    completed: bool
    cancelled: bool


class DidEnd(_DidEndRequired, total=False):
    """`transition/didEnd` params, and the result of `transition/wait` (`reason` when it did not just end,
    `error` when it failed)."""

    reason: str
    error: ErrorObject


class ServerInfo(TypedDict):
    name: str
    version: str


class ABIVersion(TypedDict):
    major: int
    minor: int


class Capabilities(TypedDict, total=False):
    framing: List[str]
    maxMessageBytes: int
    batches: bool
    cancelRequest: bool
    frames: List[str]
    clocks: List[str]


class InitializeResult(TypedDict):
    """The result of `initialize`."""

    serverInfo: ServerInfo
    protocolVersion: str
    pluginABI: ABIVersion
    capabilities: Capabilities


class _ParamRequired(TypedDict):
    name: str
    type: str
    default: Any


class ParamInfo(_ParamRequired, total=False):
    """One parameter of an animator (`min`/`max` for bounded numbers, `options` for enums, `doc` when given)."""

    min: float
    max: float
    options: List[str]
    doc: str


class AnimatorInfo(TypedDict):
    """An animator, as `animators/list` gives it (`operations` None: any operation)."""

    id: str
    plugin: str
    name: str
    description: Optional[str]
    operations: Optional[List[str]]
    params: List[ParamInfo]


class PluginInfo(TypedDict):
    """A plugin object: the result of `plugins/load` and `plugins/reload`, and each of `plugins/list`."""

    id: str
    name: str
    version: str
    vendor: Optional[str]
    description: Optional[str]
    abi: str
    path: str
    builtin: bool
    generation: int
    animators: List[str]


class PluginsListResult(TypedDict):
    """The result of `plugins/list`, in load order."""

    plugins: List[PluginInfo]


class AnimatorsListResult(TypedDict):
    """The result of `animators/list`."""

    animators: List[AnimatorInfo]


class StartResult(TypedDict):
    """The result of `transition/start`."""

    transition: str
    duration: float


class TransitionState(TypedDict):
    """A transition's state after a call: the result of `transition/update`, `pause`, `finish`, `cancel` and
    `reverse`, and each entry of `transition/tick`'s result."""

    transition: str
    phase: str
    time: float
    percent: float


class ReleaseResult(TransitionState):
    """The result of `transition/release`: the state, and which way the release rule went."""

    decision: str


class GestureResult(TransitionState):
    """The result of `transition/gesture`: the state after the sample, and how many gesture recognizers received
    it (the host answers 2011 when none did)."""

    recognizers: int


class SceneOpenResult(TypedDict):
    """The result of `scene/open`: the scene's id and the animator it runs on (qualified)."""

    scene: str
    animator: str


class _SceneGestureRequired(TypedDict):
    recognizers: int


class SceneGestureResult(_SceneGestureRequired, total=False):
    """The result of `scene/gesture`: how many recognizers received the sample, and the transition a handler
    started, if one did."""

    transition: str


#: The params of `scene/transitionStarted`: a scene's handler started a transition (streamed as from
#: `transition/start`); `from` and `to` are the root ids of its trees.
SceneTransitionStarted = TypedDict(
    "SceneTransitionStarted",
    {"scene": str, "transition": str, "animator": str, "operation": str, "from": str, "to": str, "duration": float},
)


class SceneDidClose(TypedDict):
    """The params of `scene/didClose`: the scene's plugin worker died; `reason` "pluginCrashed" or "pluginHung"."""

    scene: str
    reason: str
    error: ErrorObject


#: An entry of `transition/tick`'s result.
TickEntry = TransitionState


class TickResult(TypedDict):
    """The result of `transition/tick`: every transition it advanced."""

    transitions: List[TickEntry]


class ListEntry(TransitionState):
    """A live transition, as `transition/list` gives it."""

    animator: str
    operation: str
    duration: float
    interactive: bool
    clock: str
    fps: float
    frames: str


class TransitionListResult(TypedDict):
    """The result of `transition/list`: the transitions that have not ended, oldest first."""

    transitions: List[ListEntry]


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
