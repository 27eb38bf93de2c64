"""grape's exceptions. Each carries Neo4j's status code and, where the problem has a place in
the query text, its 1-based line and column."""

from __future__ import annotations

from typing import Optional

__all__ = ["GrapeError", "CypherSyntaxError", "CypherError", "DataError"]


class GrapeError(Exception):
    """The base class of grape's errors."""

    def __init__(
        self,
        message: str,
        line: Optional[int] = None,
        column: Optional[int] = None,
        code: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.code = code

    def __str__(self) -> str:
        where = f" (line {self.line}, column {self.column})" if self.line is not None else ""
        code = f"{self.code}: " if self.code else ""
        return f"{code}{self.message}{where}"


class CypherSyntaxError(GrapeError):
    """A query that does not parse (`Neo.ClientError.Statement.SyntaxError`)."""


class CypherError(GrapeError):
    """A query Neo4j would refuse or fail: a compile-time error (unknown function, undefined
    variable, type error), a runtime error or an exceeded limit. `code` is Neo4j's status code
    (`Neo.ClientError.Statement.SyntaxError`, `Neo.ClientError.Procedure.ProcedureNotFound`,
    `Neo.ClientError.Transaction.TransactionTimedOut`, ...)."""


class DataError(GrapeError):
    """A file or value that cannot be read: a graph, schema, dataset or predictions file (the
    message names the file and the record), or parameters grape cannot encode."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
