"""Checks a value received from the host against a type of `transition_host_client.models`, at run time.

TypedDicts are only hints for type checkers; these tests hold the client to them: every required member is there,
every member (required or not) has its declared type, recursively. Members a TypedDict does not declare are
allowed: a newer host may add some, and the client passes them through.
"""

import typing
from typing import Any, Optional, Union


def is_typed_dict(annotation) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, dict) and hasattr(annotation, "__total__")


def mismatch(value, annotation, path: str = "result") -> Optional[str]:
    """None when `value` has the shape `annotation` describes, else where and how it does not."""
    if annotation is Any:
        return None
    if annotation is None or annotation is type(None):
        return None if value is None else f"{path}: expected null, got {value!r}"
    origin = typing.get_origin(annotation)
    if origin is Union:
        reasons = [mismatch(value, option, path) for option in typing.get_args(annotation)]
        return None if None in reasons else " / ".join(reasons)
    if origin in (list, typing.List):
        if not isinstance(value, list):
            return f"{path}: expected an array, got {value!r}"
        (element,) = typing.get_args(annotation) or (Any,)
        for index, item in enumerate(value):
            reason = mismatch(item, element, f"{path}[{index}]")
            if reason:
                return reason
        return None
    if origin in (dict, typing.Dict):
        return None if isinstance(value, dict) else f"{path}: expected an object, got {value!r}"
    if is_typed_dict(annotation):
        if not isinstance(value, dict):
            return f"{path}: expected an object ({annotation.__name__}), got {value!r}"
        missing = sorted(set(annotation.__required_keys__) - set(value))
        if missing:
            return f"{path}: {annotation.__name__} lacks {', '.join(missing)}"
        for key, member in typing.get_type_hints(annotation).items():
            if key in value:
                reason = mismatch(value[key], member, f"{path}.{key}")
                if reason:
                    return reason
        return None
    if annotation is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if ok else f"{path}: expected a number, got {value!r}"
    if annotation is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else f"{path}: expected an integer, got {value!r}"
    if annotation in (str, bool):
        return None if isinstance(value, annotation) else f"{path}: expected {annotation.__name__}, got {value!r}"
    raise TypeError(f"{path}: cannot check against {annotation!r}")
