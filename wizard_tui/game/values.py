"""Small immutable value classes that are cheap to define: the actions, the events, a round's
result and a game's configuration.

They behave as ``@dataclass(frozen=True, slots=True)`` classes do, but that decorator
writes and compiles the source of half a dozen methods for each class and then builds the
class a second time to add its ``__slots__``: about half a millisecond a class, paid 15
times over by every program that imports the engine (the terminal client's start-up
included). ``Value`` shares one set of methods among all its subclasses instead, but for
``__init__``:

- the fields are the class's annotations, in order (no defaults: a class that wants one
  writes its own ``__init__``, as ``GameConfig`` does); direct subclasses of ``Value`` only;
- ``__slots__`` and ``__match_args__`` are the fields, so instances have no ``__dict__``
  and ``case Play(seat, card)`` works;
- ``__init__`` takes the fields by position or keyword (it is written for each class, as
  ``dataclass`` writes its own: ``_fields_init``); equality is "same class, equal fields",
  ``hash`` is the hash of the fields, ``repr`` is ``Play(seat=1, card=5)``;
- assigning or deleting an attribute raises ``dataclasses.FrozenInstanceError``;
- instances pickle and copy (the bots' worker processes receive them pickled).

What they lack is the ``dataclasses`` introspection (``fields``, ``asdict``, ``replace``);
nothing uses it on these classes (``SeatView``, which is introspected, stays a dataclass).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from itertools import repeat
from typing import Any, ClassVar, dataclass_transform


class _ValueType(type):
    """Makes each class's annotations its ``__slots__`` and ``__match_args__``."""

    _setters: tuple[Callable[[Any, Any], None], ...]

    def __new__(
        mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _ValueType:
        # The fields of a subclass; ``Value``'s own annotations are not fields.
        fields = tuple(namespace.get("__annotations__", ())) if bases else ()
        namespace["__slots__"] = fields
        namespace["__match_args__"] = fields
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        # Each slot's own setter: ``__init__`` calls these, past the frozen ``__setattr__``.
        cls._setters = tuple(cls.__dict__[field].__set__ for field in fields)
        if bases and "__init__" not in namespace:
            # mypy refuses assigning a method to a class; writing it is this metaclass's job.
            cls.__init__ = _fields_init(cls, fields)  # type: ignore[misc]
        return cls


def _fields_init(cls: _ValueType, fields: tuple[str, ...]) -> Callable[..., None]:
    """An ``__init__`` taking the fields as its parameters, ``def __init__(self, seat,
    card)``, written and compiled for ``cls`` as ``dataclass`` does (but only this one
    method, about 25 us): events are built for every action the host applies, and this is
    several times faster than a shared ``__init__(self, *args, **kwargs)``, and faster than
    ``dataclass``'s own (it calls the slots' setters directly)."""
    setters = {f"_set_{field}": setter for field, setter in zip(fields, cls._setters, strict=True)}
    body = "".join(f"\n    _set_{field}(self, {field})" for field in fields) or "\n    pass"
    exec(f"def __init__(self, {', '.join(fields)}):{body}", setters)
    init: Callable[..., None] = setters["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


@dataclass_transform(eq_default=True, frozen_default=True)  # tells type checkers the above
class Value(metaclass=_ValueType):
    """Base class of immutable values; see the module's docstring."""

    _setters: ClassVar[tuple[Callable[[Any, Any], None], ...]] = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()  # the fields, set by ``_ValueType``

    def __init__(self, *values: Any) -> None:
        # Every subclass gets an ``__init__`` of its own (``_fields_init``); this one is for a
        # subclass that writes its own and passes it the fields in order (``GameConfig``).
        for set_field, value in zip(self._setters, values, strict=True):
            set_field(self, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(map(getattr, repeat(self), self.__match_args__))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return (type(self), self._values())
