"""grape: test and evaluate text-to-Cypher systems, GraphRAG retrievers and graph agents.

Cypher parsing and printing, offline validation against a schema, an in-memory property graph
that runs Cypher as Neo4j 5 does, the field's metrics, the evaluation runner and a Bolt server
that Neo4j's drivers talk to -- all in-process, no database, no network.

>>> import grape
>>> g = grape.Graph.from_cypher("CREATE (:Person {name: 'Ann'})-[:KNOWS]->(:Person {name: 'Bo'})")
>>> g.run("MATCH (a)-[:KNOWS]->(b) RETURN a.name AS a, b.name AS b").records()
[{'a': 'Ann', 'b': 'Bo'}]
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

from . import _grape, metrics
from .errors import CypherError, CypherSyntaxError, DataError, GrapeError
from .types import Duration, Node, Path, Point, Relationship, decode, encode_params

__version__: str = _grape.__version__

__all__ = [
    "parse",
    "print",
    "validate",
    "analyze",
    "Statement",
    "Schema",
    "Validation",
    "Diagnostic",
    "Analysis",
    "Graph",
    "Result",
    "evaluate",
    "Report",
    "compare",
    "serve_bolt",
    "BoltServer",
    "metrics",
    "Node",
    "Relationship",
    "Path",
    "Point",
    "Duration",
    "GrapeError",
    "CypherSyntaxError",
    "CypherError",
    "DataError",
]

PathLike = Union[str, "os.PathLike[str]"]


# ---- syntax ----


class Statement:
    """A parsed Cypher statement."""

    def __init__(self, native: Any) -> None:
        self._s = native

    @property
    def text(self) -> str:
        """The source text."""
        return self._s.text

    def canonical(self) -> str:
        """grape's canonical form: keywords upper-case, one space between tokens, variables
        renamed ``v0, v1, ...`` in order of appearance (what the ``canonical`` text-metric
        variant compares)."""
        return self._s.print(True)

    def print(self) -> str:
        """The statement printed back in canonical layout, variable names kept."""
        return self._s.print(False)

    def json(self) -> Dict[str, Any]:
        """The typed AST as JSON data (every node with its byte span)."""
        return json.loads(self._s.json())

    @property
    def is_updating(self) -> bool:
        """Whether the statement writes."""
        return self._s.is_updating()

    @property
    def orders_rows(self) -> bool:
        """Whether the final ``RETURN`` has ``ORDER BY`` (results then compare in order)."""
        return self._s.orders_rows()

    def analyze(self) -> "Analysis":
        """Hop complexity, missing aliases and access type."""
        return Analysis._from(json.loads(self._s.analyze()))

    def __str__(self) -> str:
        return self.print()

    def __repr__(self) -> str:
        return f"Statement({self.text!r})"


def parse(text: str) -> Statement:
    """Parses one Cypher statement; raises :class:`CypherSyntaxError` (with ``line`` and
    ``column``) when it does not parse."""
    return Statement(_grape.parse(text))


def print(text: str, canonical: bool = False) -> str:  # noqa: A001 - the CLI's verb
    """Parses ``text`` and prints it back: canonical layout, or with ``canonical=True`` also
    variables renamed (``v0, v1, ...``)."""
    return _grape.parse(text).print(canonical)


@dataclass(frozen=True)
class Diagnostic:
    """One validator finding: its kind, Neo4j-style code, a message that says what to change,
    and where (1-based line and column, byte span)."""

    kind: str
    code: str
    message: str
    line: int
    column: int
    span: Dict[str, int]
    #: CyVer's validator the finding belongs to: ``syntax``, ``schema`` or ``properties``.
    category: str


@dataclass(frozen=True)
class Validation:
    """The verdict on one query: it parses and passes the static checks (``syntax_ok``),
    CyVer's schema and properties scores, ``kg_valid``, and every finding. Validated without a
    schema, only the syntax category is judged: ``schema_score``, ``properties_score`` and
    ``kg_valid`` are ``None``."""

    query: str
    syntax_ok: bool
    schema_score: Optional[float]
    properties_score: Optional[float]
    kg_valid: Optional[bool]
    diagnostics: List[Diagnostic]

    @classmethod
    def _from(cls, query: str, d: Dict[str, Any]) -> "Validation":
        diags = [
            Diagnostic(
                kind=x["kind"],
                code=x["code"],
                message=x["message"],
                line=x["line"],
                column=x["column"],
                span=x["span"],
                category=x["category"],
            )
            for x in d["diagnostics"]
        ]
        return cls(query, d["syntax_ok"], d["schema_score"], d["properties_score"], d["kg_valid"], diags)


class Schema:
    """A graph schema: labels, relationship types, their properties and types, triples."""

    def __init__(self, native: Any) -> None:
        self._s = native

    @classmethod
    def read(cls, path_or_text: Union[PathLike, str], format: Optional[str] = None) -> "Schema":
        """Reads a schema from a file or from its text. ``format``: ``grape``, ``structured``
        (neo4j-graphrag / LangChain), ``apoc`` (``apoc.meta.schema``, mcp-neo4j-cypher),
        ``zograscope``, ``cypherturn``, ``importer`` (Neo4j Data Importer) or ``prompt``
        (the text block of text-to-Cypher prompts); detected when left out. A ``str`` is read
        as a path when a file of that name exists, else as schema text. A file that is no
        schema but a graph :meth:`Graph.load` reads (a fixture, a snapshot, a Data Importer
        folder, …) gives its data's schema, as the command line does."""
        if isinstance(path_or_text, os.PathLike):
            return cls._read_path(os.fspath(path_or_text), format)
        text = str(path_or_text)
        if "\n" not in text and len(text) < 4096 and os.path.exists(text):
            return cls._read_path(text, format)
        return cls(_grape.Schema.read_text(text, format))

    @classmethod
    def _read_path(cls, path: str, format: Optional[str]) -> "Schema":
        if os.path.isdir(path) and format is None:
            return Graph.load(path).schema()
        try:
            return cls(_grape.Schema.read_path(path, format))
        except DataError as as_schema:
            if format is not None:
                raise
            try:
                return Graph.load(path).schema()
            except DataError as as_graph:
                raise DataError(f"{as_schema}; nor is it a graph grape reads: {as_graph}") from None

    def write(self, format: str = "grape") -> str:
        """The schema in another format (see :meth:`read`)."""
        return self._s.write(format)

    def to_prompt(self) -> str:
        """The schema as the text block text-to-Cypher prompts use."""
        return self._s.to_prompt()

    def __str__(self) -> str:
        return self.to_prompt()


def validate(
    queries: Union[str, Iterable[str]],
    schema: Union[Schema, "Graph", PathLike, None] = None,
    parameters: Optional[Iterable[str]] = None,
    cypher: Optional[int] = None,
) -> List[Validation]:
    """Validates queries offline against a schema (CyVer's checks and Neo4j 5's compile-time
    checks; without a schema only the latter). ``schema``: a :class:`Schema`, a
    :class:`Graph` (its data's schema) or a path :meth:`Schema.read` reads. ``parameters``:
    the names that will be supplied (others are reported); ``cypher``: 5 or 25 for
    statements without a prefix."""
    qs = [queries] if isinstance(queries, str) else list(queries)
    if isinstance(schema, Graph):
        schema = schema.schema()
    elif isinstance(schema, (str, os.PathLike)):
        schema = Schema.read(schema)
    elif schema is not None and not isinstance(schema, Schema):
        raise TypeError(
            f"validate(): schema must be a grape.Schema, a grape.Graph or a path, not "
            f"{type(schema).__name__}"
        )
    native = schema._s if schema is not None else None
    params = None if parameters is None else list(parameters)
    out = _grape.validate(qs, native, params, cypher)
    return [Validation._from(q, json.loads(v)) for q, v in zip(qs, out)]


@dataclass(frozen=True)
class Analysis:
    """Schema-free analyses of one statement: GRAPE's hop complexity (``hops`` and the rest of
    ``complexity``), ``RETURN``/``WITH`` items without an alias, and Neo4j's access type
    (``r``, ``rw``, ``w`` or ``s``)."""

    hops: int
    complexity: Dict[str, Any]
    missing_aliases: List[Dict[str, Any]]
    access: str

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "Analysis":
        return cls(d["complexity"]["hops"], d["complexity"], d["missing_aliases"], d["access"])


def analyze(query: str) -> Analysis:
    """Hop complexity, missing aliases and access type of one query."""
    return parse(query).analyze()


# ---- graphs ----


class Result:
    """A query result: ``columns``, ``rows`` (lists of Python values), ``records()`` (dicts),
    ``stats`` (Neo4j's update counters), ``plan`` (after ``EXPLAIN``/``PROFILE``) and
    ``to_pandas()``."""

    def __init__(self, native: Any) -> None:
        self._t = native
        self.columns: List[str] = native.columns
        self._decoded: Optional[Dict[str, Any]] = None

    def _json(self) -> Dict[str, Any]:
        if self._decoded is None:
            self._decoded = json.loads(self._t.json())
        return self._decoded

    @property
    def rows(self) -> List[List[Any]]:
        return [[decode(v) for v in r] for r in self._json()["rows"]]

    def records(self) -> List[Dict[str, Any]]:
        return [dict(zip(self.columns, r)) for r in self.rows]

    def value(self, default: Any = None) -> Any:
        """The first column of the first row (``default`` when there is none)."""
        rows = self._json()["rows"]
        return decode(rows[0][0]) if rows and rows[0] else default

    @property
    def stats(self) -> Dict[str, Any]:
        return self._json()["stats"]

    @property
    def plan(self) -> Optional[Dict[str, Any]]:
        return self._json().get("plan")

    @property
    def ordered(self) -> bool:
        """Whether the query ordered its rows (``RETURN ... ORDER BY``)."""
        return self._t.ordered

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=self.columns)

    def __len__(self) -> int:
        return len(self._t)

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return iter(self.records())

    def __repr__(self) -> str:
        return f"Result(columns={self.columns!r}, rows={len(self)})"


class Graph:
    """An in-memory property graph that runs Cypher with Neo4j 5's semantics."""

    def __init__(self, native: Any = None) -> None:
        self._g = native if native is not None else _grape.Graph()

    @classmethod
    def load(cls, path: PathLike, types: str = "strings") -> "Graph":
        """Loads a graph from every format ``grape query --graph`` reads: a grape JSON fixture,
        a Cypher script (``.cypher``), a Neo4j Data Importer folder, GRAPE's sampled paths.
        ``types`` (Data Importer folders): ``strings`` as the CSV header says, or ``model``."""
        return cls(_grape.Graph.load(os.fspath(path), types))

    @classmethod
    def from_cypher(cls, script: str) -> "Graph":
        """A graph made by running a Cypher script (statements separated by ``;``)."""
        return cls(_grape.Graph.from_cypher(script))

    def run(
        self,
        query: str,
        params: Optional[Mapping[str, Any]] = None,
        timeout_ms: Optional[int] = None,
        read_only: bool = False,
        cypher: Optional[int] = None,
    ) -> Result:
        """Runs one statement. Writes change this graph (all or nothing: a failed statement
        leaves it as it was). Raises :class:`CypherSyntaxError` or :class:`CypherError`
        (Neo4j's status code, line and column)."""
        p = encode_params(dict(params)) if params is not None else None
        return Result(self._g.run(query, p, timeout_ms, read_only, cypher))

    def copy(self) -> "Graph":
        return Graph(self._g.copy())

    @property
    def node_count(self) -> int:
        return self._g.node_count()

    @property
    def relationship_count(self) -> int:
        return self._g.relationship_count()

    def schema(self) -> Schema:
        """The schema of the graph's data."""
        return Schema(self._g.schema())

    def __repr__(self) -> str:
        return f"Graph(nodes={self.node_count}, relationships={self.relationship_count})"


# ---- evaluation ----


class Report:
    """An evaluation report: ``overall`` (metric -> mean), ``by(field)`` (metric means per
    value of a category field), ``counts``, ``ci95``, the per-example ``records`` (also as a
    DataFrame with ``to_pandas()``), and ``json()``, byte for byte the ``report.json`` that
    ``grape eval`` writes."""

    def __init__(self, report_json: str, records_jsonl: str) -> None:
        self._json = report_json
        self.data: Dict[str, Any] = json.loads(report_json)
        self.records: List[Dict[str, Any]] = [
            json.loads(line) for line in records_jsonl.splitlines() if line.strip()
        ]

    @property
    def examples(self) -> int:
        return self.data["examples"]

    @property
    def scored(self) -> int:
        return self.data["scored"]

    @property
    def overall(self) -> Dict[str, float]:
        return self.data["overall"]

    @property
    def counts(self) -> Dict[str, Dict[str, int]]:
        return self.data["counts"]

    @property
    def ci95(self) -> Dict[str, List[float]]:
        return self.data.get("ci95", {})

    def fields(self) -> List[str]:
        """The category fields the report breaks down by."""
        return sorted(self.data["by"])

    def by(self, field: str) -> Dict[str, Dict[str, float]]:
        """Metric means per value of ``field`` (e.g. ``type``, ``hops``)."""
        try:
            return self.data["by"][field]
        except KeyError:
            raise KeyError(f"no category field {field!r}; the report has {self.fields()}") from None

    def json(self) -> str:
        return self._json

    def to_pandas(self) -> Any:
        """One row per example: id, question, gold, prediction, errors, every category and
        every metric as columns (needs pandas)."""
        import pandas as pd

        flat = []
        for r in self.records:
            row: Dict[str, Any] = {
                "id": r["id"],
                "question": r.get("question", ""),
                "gold": r["gold"],
                "prediction": r.get("prediction"),
                "gold_error": r.get("gold_error"),
                "prediction_error": r.get("prediction_error"),
            }
            row.update(r.get("categories", {}))
            row.update(r.get("metrics", {}))
            flat.append(row)
        return pd.DataFrame(flat)

    def by_frame(self, field: str) -> Any:
        """``by(field)`` as a DataFrame (values as rows, metrics as columns; needs pandas)."""
        import pandas as pd

        return pd.DataFrame.from_dict(self.by(field), orient="index").sort_index()

    def __repr__(self) -> str:
        return f"Report(examples={self.examples}, scored={self.scored})"


def _predictions_jsonl(predictions: Any) -> "tuple[str, str]":
    if isinstance(predictions, (str, os.PathLike)):
        path = os.fspath(predictions)
        try:
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except OSError as e:
            raise DataError(f"{path}: cannot read: {e}") from None
    if isinstance(predictions, Mapping):
        items: Iterable[Any] = (
            {"id": k, "candidates": list(v)} if isinstance(v, (list, tuple)) else {"id": k, "cypher": v}
            for k, v in predictions.items()
        )
    else:
        items = predictions
    lines = [json.dumps(p) for p in items]
    return "\n".join(lines) + "\n", "<predictions>"


def evaluate(
    dataset: PathLike,
    predictions: Union[PathLike, Sequence[Mapping[str, Any]], Mapping[str, Any]],
    graph: Union["Graph", PathLike, None] = None,
    k: int = 1,
    out: Optional[PathLike] = None,
    progress: bool = True,
    *,
    graphs: Optional[PathLike] = None,
    schema: Optional[Schema] = None,
    format: Optional[str] = None,
    variant: str = "default",
    workers: Optional[int] = None,
    timeout_ms: int = 10_000,
    types: str = "strings",
    schemas: Optional[PathLike] = None,
) -> Report:
    """Evaluates predictions against a dataset, as ``grape eval`` does, on grape's worker
    threads with the GIL released.

    ``dataset``: a dataset file (ZOGRASCOPE CSV, GRAPE JSON, CypherTurn, JSON Lines, or Neo4j's
    text2cypher layout as JSON Lines, CSV or parquet; ``format`` to say which). ``predictions``: a JSON Lines file, a list of ``{"id", "cypher"}`` /
    ``{"id", "candidates"}`` dicts, or a dict ``id -> query`` (or ``id -> [candidates]``).
    ``graph``: a :class:`Graph` or a path to load; ``graphs``: a folder of named graphs for
    datasets that name theirs. ``k``: Pass@k is reported for 1 and k. ``out``: a folder for
    ``examples.jsonl``, ``report.json``, ``report.md`` and ``report.html``; a rerun resumes
    from the records there. ``progress``: a progress bar on standard error once a run has taken
    a second. ``schemas``: a ``database,schema`` CSV giving each example that names a database
    that database's schema. Without ``graph`` and ``graphs`` the run is text-only (text metrics
    and validity, nothing executed)."""
    text, origin = _predictions_jsonl(predictions)
    native_graph = None
    if isinstance(graph, Graph):
        native_graph = graph._g
    elif graph is not None:
        native_graph = _grape.Graph.load(os.fspath(graph), types)
    report_json, records = _grape.evaluate(
        os.fspath(dataset),
        text,
        origin,
        native_graph,
        None if graphs is None else os.fspath(graphs),
        None if schema is None else schema._s,
        format,
        k,
        variant,
        None if out is None else os.fspath(out),
        progress,
        workers,
        timeout_ms,
        types,
        None if schemas is None else os.fspath(schemas),
    )
    return Report(report_json, records)


def compare(*runs: PathLike, resamples: int = 10_000) -> Dict[str, Any]:
    """Compares evaluation runs (``out`` folders of :func:`evaluate` / ``grape eval``, or their
    ``examples.jsonl``) with the first, as ``grape compare`` does: per metric both means, the
    difference with a paired bootstrap 95% interval and a p-value (McNemar's exact test for
    binary metrics, a paired permutation test for graded ones), the same per category value,
    and the examples whose binary metrics flipped. Returns the comparison's JSON data
    (``{"baseline", "runs": [{"run", "shared", "metrics": [...], "by": {...},
    "flipped": {...}}]}``)."""
    if len(runs) < 2:
        raise ValueError("compare needs at least two runs")
    return json.loads(_grape.compare([os.fspath(r) for r in runs], resamples))


# ---- Bolt ----


def _graph_of(graph: Union["Graph", PathLike, None], name: str) -> "Graph":
    """``graph`` as a :class:`Graph`: itself, the graph at a path (any format
    :meth:`Graph.load` reads), or an empty graph for ``None``; anything else is a ``TypeError``
    naming the argument."""
    if graph is None:
        return Graph()
    if isinstance(graph, Graph):
        return graph
    if isinstance(graph, (str, os.PathLike)):
        return Graph.load(graph)
    raise TypeError(
        f"{name} must be a grape.Graph or a path to a graph, not {type(graph).__name__}"
    )


class BoltServer:
    """A Bolt server over a copy of a graph, in this process on a background thread: Neo4j's
    drivers connect to :attr:`uri`. Use it as a context manager, or call :meth:`close`."""

    def __init__(
        self,
        graph: Union[Graph, PathLike, None] = None,
        port: int = 0,
        auth: Optional["tuple[str, str]"] = None,
        read_only: bool = False,
        host: str = "127.0.0.1",
    ) -> None:
        g = _graph_of(graph, "graph")
        user, password = auth if auth is not None else (None, None)
        self._server = _grape.BoltServer(g._g, host, port, user, password, read_only)

    @property
    def port(self) -> int:
        return self._server.port

    @property
    def uri(self) -> str:
        return f"bolt://{self._server.host}:{self._server.port}"

    def graph(self) -> Graph:
        """The served graph as it is now (a copy): what the clients wrote."""
        return Graph(self._server.graph())

    def close(self) -> None:
        self._server.close()

    @property
    def closed(self) -> bool:
        return self._server.closed

    def __enter__(self) -> str:
        """The URI to connect to."""
        return self.uri

    def __exit__(self, *exc: Any) -> None:
        self.close()


def serve_bolt(
    graph: Union[Graph, PathLike, None] = None,
    port: int = 0,
    auth: Optional["tuple[str, str]"] = None,
    read_only: bool = False,
    host: str = "127.0.0.1",
) -> BoltServer:
    """Serves a copy of ``graph`` (a :class:`Graph` or a path to one) over Bolt (port 0: a
    free port). ``auth``: the
    ``(user, password)`` clients must present (any, when left out). As a context manager it
    gives the URI and closes the server at the end::

        with grape.serve_bolt(graph) as uri:
            driver = neo4j.GraphDatabase.driver(uri, auth=("neo4j", "x"))
    """
    return BoltServer(graph, port, auth, read_only, host)
