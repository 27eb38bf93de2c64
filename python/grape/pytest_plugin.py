"""grape's pytest plugin (entry point ``pytest11``, active once the package is installed).

Fixtures:

``grape_graph``
    A fresh :class:`grape.Graph` for each test: the graph a ``@pytest.mark.grape_graph(...)``
    marker names (on the test, its class or module), else the ``grape_graph`` ini option
    (a path relative to the ini file), else an empty graph. The marker takes a path
    (``@pytest.mark.grape_graph("fixtures/movies.json")``: relative to the test file's folder,
    else to the ini file's folder — pytest's rootdir without one —, whatever the current
    directory), ``cypher="CREATE ..."`` for
    a graph made by a script, or ``types="model"`` for Data Importer folders. Each file is read
    once per session; every test gets its own copy, so writes never leak between tests.

``grape_bolt``
    A :class:`grape.BoltServer` over the test's ``grape_graph``, started for the test and
    closed after it; ``grape_bolt.graph()`` is what the test's clients wrote.

``grape_bolt_uri``
    ``grape_bolt``'s URI (``bolt://127.0.0.1:PORT``): hand it to
    ``neo4j.GraphDatabase.driver(grape_bolt_uri, auth=(...))`` where a test suite used a
    Neo4j container. Any credentials are accepted unless the ``grape_bolt_auth`` ini option
    (``user:password``) sets them.

``grape_bolt_auth``
    The credentials to give the driver, ``(user, password)``: the ``grape_bolt_auth`` ini
    option's, else ``("neo4j", "grape")`` (any are accepted then), so a test's driver need not
    repeat them: ``neo4j.GraphDatabase.driver(grape_bolt_uri, auth=grape_bolt_auth)``.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, Optional, Tuple

import pytest

import grape

_CACHE: Dict[Tuple[str, str], grape.Graph] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "grape_graph",
        "the graph file grape_graph and grape_bolt_uri serve when a test names none",
        default="",
    )
    parser.addini(
        "grape_bolt_auth",
        "user:password the grape_bolt server requires (any credentials when empty)",
        default="",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "grape_graph(path=None, cypher=None, types='strings'): the graph the grape_graph and "
        "grape_bolt_uri fixtures give this test",
    )


def _base_dir(config: pytest.Config) -> str:
    inipath = getattr(config, "inipath", None)
    if inipath:
        return os.path.dirname(os.fspath(inipath))
    return os.fspath(config.rootpath)


def _graph_for(request: pytest.FixtureRequest) -> grape.Graph:
    marker = request.node.get_closest_marker("grape_graph")
    path: Optional[str] = None
    types = "strings"
    cypher: Optional[str] = None
    if marker is not None:
        if marker.args:
            path = os.fspath(marker.args[0])
        path = marker.kwargs.get("path", path)
        cypher = marker.kwargs.get("cypher")
        types = marker.kwargs.get("types", types)
        if path is not None and not os.path.isabs(path):
            test_dir = os.path.dirname(os.fspath(request.node.path))
            candidate = os.path.join(test_dir, path)
            path = candidate if os.path.exists(candidate) else os.path.join(
                _base_dir(request.config), path
            )
    else:
        ini = request.config.getini("grape_graph")
        if ini:
            path = ini if os.path.isabs(ini) else os.path.join(_base_dir(request.config), ini)
    if cypher is not None:
        key = ("cypher", cypher)
        if key not in _CACHE:
            _CACHE[key] = grape.Graph.from_cypher(cypher)
    elif path is not None:
        key = (os.path.abspath(path), types)
        if key not in _CACHE:
            _CACHE[key] = grape.Graph.load(path, types=types)
    else:
        return grape.Graph()
    return _CACHE[key].copy()


@pytest.fixture
def grape_graph(request: pytest.FixtureRequest) -> grape.Graph:
    """A fresh in-memory graph for this test (see the module docs)."""
    return _graph_for(request)


def _required_auth(config: pytest.Config) -> Optional[Tuple[str, str]]:
    ini = config.getini("grape_bolt_auth")
    if not ini:
        return None
    user, _, password = ini.partition(":")
    return (user, password)


@pytest.fixture
def grape_bolt_auth(request: pytest.FixtureRequest) -> Tuple[str, str]:
    """The ``(user, password)`` this test's Bolt server takes (see the module docs)."""
    return _required_auth(request.config) or ("neo4j", "grape")


@pytest.fixture
def grape_bolt(request: pytest.FixtureRequest, grape_graph: grape.Graph) -> Iterator[grape.BoltServer]:
    """A Bolt server over this test's graph, closed after the test."""
    auth: Any = _required_auth(request.config)
    server = grape.serve_bolt(grape_graph, auth=auth)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def grape_bolt_uri(grape_bolt: grape.BoltServer) -> str:
    """The URI of this test's Bolt server (``bolt://127.0.0.1:PORT``)."""
    return grape_bolt.uri
