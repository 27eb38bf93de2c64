"""Cypher values in Python.

Results come back as Python values: ``None``, ``bool``, ``int``, ``float``, ``str``, ``list``,
``dict``; nodes, relationships and paths as :class:`Node`, :class:`Relationship` and
:class:`Path`; points as :class:`Point`; ``DATE`` as :class:`datetime.date`, ``LOCAL TIME`` as a
naive and ``ZONED TIME`` as an aware :class:`datetime.time`, ``LOCAL DATETIME`` as a naive and
``ZONED DATETIME`` as an aware :class:`datetime.datetime` (a named zone as
:class:`zoneinfo.ZoneInfo` when the zone database knows it, else the fixed offset), ``DURATION``
as :class:`Duration` (months, days, seconds and nanoseconds kept apart, as Neo4j keeps them).

Python's ``datetime`` holds microseconds: nanosecond digits of a temporal value are cut to
microseconds, and a year outside 1..9999 cannot be held at all, so such a value comes back as
its ISO 8601 text (a ``str``). :class:`Duration` is exact.

Parameters go the other way: the same types, plus ``tuple`` for a list and
:class:`datetime.timedelta` for a duration.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["Node", "Relationship", "Path", "Point", "Duration", "decode", "encode_params"]


@dataclass(frozen=True)
class Node:
    """A node of a result: its id, labels and properties when the query ran."""

    id: int
    labels: Tuple[str, ...]
    properties: Dict[str, Any] = field(hash=False, compare=False)
    #: What Cypher's ``elementId(n)`` returns for this node (``4:<database id>:<id>``).
    element_id: str = field(default="", hash=False, compare=False)

    def __getitem__(self, key: str) -> Any:
        return self.properties[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.properties.get(key, default)


@dataclass(frozen=True)
class Relationship:
    """A relationship of a result: its id, type, endpoints' ids and properties."""

    id: int
    type: str
    start: int
    end: int
    properties: Dict[str, Any] = field(hash=False, compare=False)
    #: What Cypher's ``elementId(r)`` returns for this relationship (``5:<database id>:<id>``).
    element_id: str = field(default="", hash=False, compare=False)

    def __getitem__(self, key: str) -> Any:
        return self.properties[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.properties.get(key, default)


@dataclass(frozen=True)
class Path:
    """A path: ``len(nodes) == len(relationships) + 1``."""

    nodes: Tuple[Node, ...]
    relationships: Tuple[Relationship, ...]

    def __len__(self) -> int:
        return len(self.relationships)

    @property
    def start(self) -> Node:
        return self.nodes[0]

    @property
    def end(self) -> Node:
        return self.nodes[-1]


_SRIDS = {"cartesian": 7203, "cartesian-3d": 9157, "wgs-84": 4326, "wgs-84-3d": 4979}


@dataclass(frozen=True)
class Point:
    """A spatial point: its coordinate reference system (``cartesian``, ``cartesian-3d``,
    ``wgs-84``, ``wgs-84-3d``) and coordinates. For WGS-84, x is the longitude and y the
    latitude."""

    crs: str
    x: float
    y: float
    z: Optional[float] = None

    @property
    def srid(self) -> int:
        return _SRIDS[self.crs]

    @property
    def longitude(self) -> float:
        return self.x

    @property
    def latitude(self) -> float:
        return self.y

    @property
    def height(self) -> Optional[float]:
        return self.z


@dataclass(frozen=True)
class Duration:
    """A Cypher ``DURATION``: months, days, seconds and nanoseconds, kept apart because a month
    has no fixed number of days nor a day a fixed number of seconds. ``nanoseconds`` is in
    ``0..999_999_999`` (a negative time part borrows from ``seconds``). ``str()`` gives Neo4j's
    ISO 8601 text."""

    months: int = 0
    days: int = 0
    seconds: int = 0
    nanoseconds: int = 0

    def __post_init__(self) -> None:
        carry, nanos = divmod(self.nanoseconds, 1_000_000_000)
        object.__setattr__(self, "seconds", self.seconds + carry)
        object.__setattr__(self, "nanoseconds", nanos)

    @classmethod
    def from_timedelta(cls, td: _dt.timedelta) -> "Duration":
        return cls(0, td.days, td.seconds, td.microseconds * 1000)

    def __str__(self) -> str:
        out = "P"
        years, months = divmod(abs(self.months), 12)
        sign = "-" if self.months < 0 else ""
        if years:
            out += f"{sign}{years}Y"
        if months:
            out += f"{sign}{months}M"
        if self.days:
            out += f"{self.days}D"
        total = self.seconds * 1_000_000_000 + self.nanoseconds
        if total:
            neg, total = total < 0, abs(total)
            secs, nanos = divmod(total, 1_000_000_000)
            hours, rest = divmod(secs, 3600)
            minutes, s = divmod(rest, 60)
            sign = "-" if neg else ""
            out += "T"
            if hours:
                out += f"{sign}{hours}H"
            if minutes:
                out += f"{sign}{minutes}M"
            if s or nanos:
                frac = f".{nanos:09d}".rstrip("0") if nanos else ""
                out += f"{sign}{s}{frac}S"
        elif not self.months and not self.days:
            out += "T0S"
        return out


# ---- decoding grape's JSON value encoding ----

_TIME = re.compile(r"^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?")
_OFFSET = re.compile(r"^(?:Z|([+-])(\d{2}):?(\d{2})(?::?(\d{2}))?)")
_DURATION = re.compile(
    r"^P(?:(-?\d+)Y)?(?:(-?\d+)M)?(?:(-?\d+)W)?(?:(-?\d+)D)?"
    r"(?:T(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?)(\d+)(?:\.(\d+))?S)?)?$"
)


def _time_parts(text: str) -> Tuple[_dt.time, str]:
    m = _TIME.match(text)
    if not m:
        raise ValueError(f"not a time: {text!r}")
    frac = (m.group(4) or "").ljust(6, "0")[:6]
    t = _dt.time(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), int(frac or 0))
    return t, text[m.end():]


def _offset(text: str) -> Tuple[_dt.timezone, str]:
    m = _OFFSET.match(text)
    if not m:
        raise ValueError(f"not a UTC offset: {text!r}")
    if m.group(0) == "Z":
        return _dt.timezone.utc, text[1:]
    secs = int(m.group(2)) * 3600 + int(m.group(3)) * 60 + int(m.group(4) or 0)
    if m.group(1) == "-":
        secs = -secs
    return _dt.timezone(_dt.timedelta(seconds=secs)), text[m.end():]


def _zone(name: str, fixed: _dt.tzinfo) -> _dt.tzinfo:
    try:
        import zoneinfo

        return zoneinfo.ZoneInfo(name)
    except Exception:  # no zone database, or a zone it does not know
        return fixed


def _date(text: str) -> _dt.date:
    y, m, d = text.split("-")
    return _dt.date(int(y), int(m), int(d))


def _temporal(tag: str, text: str) -> Any:
    try:
        if tag == "~date":
            return _date(text)
        if tag == "~localtime":
            return _time_parts(text)[0]
        if tag == "~time":
            t, rest = _time_parts(text)
            tz, _ = _offset(rest)
            return t.replace(tzinfo=tz)
        if tag == "~localdatetime":
            d, t = text.split("T", 1)
            return _dt.datetime.combine(_date(d), _time_parts(t)[0])
        if tag == "~datetime":
            d, t = text.split("T", 1)
            tm, rest = _time_parts(t)
            tz, rest = _offset(rest)
            value = _dt.datetime.combine(_date(d), tm, tzinfo=tz)
            if rest.startswith("[") and rest.endswith("]"):
                zone = _zone(rest[1:-1], tz)
                # The instant is the offset's; the zone gives the name and later arithmetic.
                value = value.astimezone(zone)
            return value
        if tag == "~duration":
            return _duration(text)
    except ValueError:
        # A year outside 1..9999 (or a form Python cannot hold): the exact text.
        return text
    raise ValueError(f"unknown temporal tag {tag}")


def _duration(text: str) -> Duration:
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"not a duration: {text!r}")
    g = [int(x) if x else 0 for x in m.groups()[:6]]
    years, months, weeks, days, hours, minutes = g
    neg = m.group(7) == "-"
    secs = int(m.group(8) or 0)
    nanos = int((m.group(9) or "").ljust(9, "0")[:9] or 0)
    total = secs * 1_000_000_000 + nanos
    if neg:
        total = -total
    total += (hours * 3600 + minutes * 60) * 1_000_000_000
    s, n = divmod(total, 1_000_000_000)
    return Duration(years * 12 + months, weeks * 7 + days, s, n)


def _node(d: Dict[str, Any]) -> Node:
    props = {k: _value(v) for k, v in d["properties"].items()}
    return Node(d["id"], tuple(d["labels"]), props, d.get("elementId", ""))


def _rel(d: Dict[str, Any]) -> Relationship:
    props = {k: _value(v) for k, v in d["properties"].items()}
    return Relationship(d["id"], d["type"], d["start"], d["end"], props, d.get("elementId", ""))


def _value(v: Any) -> Any:
    if isinstance(v, list):
        return [_value(x) for x in v]
    if not isinstance(v, dict):
        return v
    if len(v) == 1:
        ((k, x),) = v.items()
        if k.startswith("~"):
            if k == "~node":
                return _node(x)
            if k == "~rel":
                return _rel(x)
            if k == "~path":
                nodes = tuple(_node(e["~node"]) for e in x[0::2])
                rels = tuple(_rel(e["~rel"]) for e in x[1::2])
                return Path(nodes, rels)
            if k == "~point":
                return Point(x["crs"], _float(x["x"]), _float(x["y"]), _opt_float(x.get("z")))
            if k == "~float":
                return _float(v)
            if k == "~bytes":
                return bytes.fromhex(x)
            return _temporal(k, x)
    return {k: _value(x) for k, x in v.items()}


def _float(x: Any) -> float:
    if isinstance(x, dict):
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[x["~float"]])
    return float(x)


def _opt_float(x: Any) -> Optional[float]:
    return None if x is None else _float(x)


def decode(value: Any) -> Any:
    """A value in grape's JSON encoding (as ``json.loads`` gives it) as a Python value."""
    return _value(value)


# ---- encoding parameters ----


def _iso_time(t: _dt.time) -> str:
    return t.replace(tzinfo=None).isoformat()


def _iso_offset(delta: Optional[_dt.timedelta]) -> str:
    secs = int(delta.total_seconds()) if delta is not None else 0
    sign = "-" if secs < 0 else "+"
    h, rest = divmod(abs(secs), 3600)
    m, s = divmod(rest, 60)
    return f"{sign}{h:02d}:{m:02d}" + (f":{s:02d}" if s else "")


def _encode(v: Any, where: str) -> Any:
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (bytes, bytearray)):
        return {"~bytes": bytes(v).hex()}
    if isinstance(v, int):
        if not -(2**63) <= v < 2**63:
            raise OverflowError(f"{where}: {v} does not fit a 64-bit signed integer")
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return {"~float": "NaN"}
        if math.isinf(v):
            return {"~float": "Infinity" if v > 0 else "-Infinity"}
        return v
    if isinstance(v, (list, tuple)):
        return [_encode(x, f"{where}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise TypeError(f"{where}: map keys must be strings, not {type(k).__name__}")
            out[k] = _encode(x, f"{where}.{k}")
        return out
    if isinstance(v, _dt.datetime):
        if v.tzinfo is None:
            return {"~localdatetime": v.isoformat()}
        text = v.replace(tzinfo=None).isoformat() + _iso_offset(v.utcoffset())
        key = getattr(v.tzinfo, "key", None)
        if key:
            text += f"[{key}]"
        return {"~datetime": text}
    if isinstance(v, _dt.date):
        return {"~date": v.isoformat()}
    if isinstance(v, _dt.time):
        if v.tzinfo is None:
            return {"~localtime": _iso_time(v)}
        return {"~time": _iso_time(v) + _iso_offset(v.utcoffset())}
    if isinstance(v, _dt.timedelta):
        return {"~duration": str(Duration.from_timedelta(v))}
    if isinstance(v, Duration):
        return {"~duration": str(v)}
    if isinstance(v, Point):
        fields: Dict[str, Any] = {"crs": v.crs, "x": v.x, "y": v.y}
        if v.z is not None:
            fields["z"] = v.z
        return {"~point": fields}
    if isinstance(v, (Node, Relationship, Path)):
        raise TypeError(f"{where}: nodes, relationships and paths cannot be parameters here")
    raise TypeError(f"{where}: a {type(v).__name__} is not a Cypher value")


def encode_params(params: Optional[Dict[str, Any]]) -> Optional[str]:
    """Parameters as the JSON text the engine reads (grape's JSON value encoding)."""
    if params is None:
        return None
    if not isinstance(params, dict):
        raise TypeError("params must be a dict")
    return json.dumps({k: _encode(v, f"${k}") for k, v in params.items()})


def rows(decoded_rows: List[List[Any]]) -> List[List[Any]]:
    return [[_value(v) for v in r] for r in decoded_rows]
