"""The JSON round trip every record shares (``Record``) and the one error its checks raise.

Records are frozen dataclasses; ``to_dict`` / ``to_json`` encode them (enums as their
values, tuples as lists) under ``SCHEMA_VERSION``, and ``from_dict`` / ``from_json`` decode
them back by their type hints, rejecting unknown fields, wrong types and newer schemas
with a ``DataError``. A record may hold back part of itself from storage by overriding
``_for_json`` (a secret ``type`` action stores a placeholder for its text).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypeVar, Union

from screenpilot.errors import DataError

SCHEMA_VERSION = 1

T = TypeVar("T", bound="Record")


def fail(cls: type, message: str) -> typing.NoReturn:
    """Raise the ``DataError`` that says ``cls`` was given something invalid."""
    raise DataError(f"invalid {cls.__name__}: {message}")


class Record:
    """Mixin: JSON round trip for the frozen dataclasses of the model."""

    def _for_json(self) -> Record:
        """What of this record is stored: itself, unless a subclass holds something back."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; top-level documents carry the schema version."""
        out = _encode(self)
        assert isinstance(out, dict)
        return {"schema": SCHEMA_VERSION, "type": type(self).__name__, **out}

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
        data = dict(data)
        schema = data.pop("schema", SCHEMA_VERSION)
        kind = data.pop("type", cls.__name__)
        if not isinstance(schema, int) or schema > SCHEMA_VERSION:
            fail(
                cls,
                f"schema version {schema!r} is newer than this screenpilot "
                f"understands ({SCHEMA_VERSION}); upgrade screenpilot",
            )
        if kind != cls.__name__:
            fail(cls, f"document holds a {kind}, not a {cls.__name__}")
        out = _decode(cls, data)
        assert isinstance(out, cls)
        return out

    @classmethod
    def from_json(cls: type[T], text: str | bytes) -> T:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"invalid {cls.__name__} JSON: {exc}") from exc
        if not isinstance(data, dict):
            fail(cls, "JSON document is not an object")
        return cls.from_dict(data)


def _encode(value: Any) -> Any:
    if isinstance(value, Record):
        value = value._for_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            raise DataError(f"expected a list for {tp}, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        if len(args) != len(value):
            raise DataError(f"expected {len(args)} items for {tp}, got {value!r}")
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if isinstance(tp, type) and issubclass(tp, StrEnum):
        try:
            return tp(value)
        except ValueError as exc:
            raise DataError(f"unknown {tp.__name__} {value!r}") from exc
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            raise DataError(f"expected an object for {tp.__name__}, got {value!r}")
        hints = typing.get_type_hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        unknown = set(value) - names - {"schema", "type"}
        if unknown:
            raise DataError(f"unknown field(s) for {tp.__name__}: {sorted(unknown)}")
        kwargs = {k: _decode(hints[k], v) for k, v in value.items() if k in names}
        try:
            return tp(**kwargs)
        except TypeError as exc:
            raise DataError(f"invalid {tp.__name__}: {exc}") from exc
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if tp in (int, float, str, bool) and type(value) is not tp:
        raise DataError(f"expected {tp.__name__}, got {value!r}")
    return value
