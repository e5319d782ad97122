"""Query or change a SQLite database the builder names once, as a secret."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from quiver import Operation, Tool, ToolContext, ToolResult

TITLE = "SQL (SQLite)"
# A URL of another database (postgresql://, mysql://): not something SQLite opens.
OTHER_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
CHANGES_EVERYTHING = ("DELETE", "DROP")


@dataclass
class QueryArgs:
    """One query.

    Attributes:
        sql: One SELECT statement (a WITH ... SELECT too).
        limit: Most rows shown; the rest are counted, not shown.
    """

    sql: str
    limit: int = 100


@dataclass
class ExecuteArgs:
    """One change.

    Attributes:
        sql: One INSERT, UPDATE, DELETE, CREATE or DROP statement.
    """

    sql: str


@dataclass
class SqlSettings:
    """What the builder sets once.

    Attributes:
        dsn: The database: a SQLite file's path, or a file: URL.
    """

    dsn: str


class SqlTool(Tool):
    """A SQLite database, read with query and changed with execute."""

    name = "sql"
    title = "SQL"
    settings_model = SqlSettings
    secret_inputs = frozenset({"dsn"})
    credential_help = ("A SQLite database: a file's path such as data/app.db (relative to the "
                       "agent's working folder), or a file: URL such as file:data/app.db.")
    runtime = "in_process"
    operations = {
        "query": Operation(
            title="Run a query",
            description="Run one read-only SQL query and return the rows as a table.",
            input_model=QueryArgs, capabilities=frozenset({"db.query"}), read_only=True),
        "execute": Operation(
            title="Change the database",
            description="Run one SQL statement that changes the database; answers how many rows changed.",
            input_model=ExecuteArgs, capabilities=frozenset({"db.write"}), risk="write"),
    }

    def is_destructive(self, args) -> bool:
        # A DELETE or a DROP loses rows for good; an INSERT or an UPDATE of one row is routine.
        return self.operation == "execute" and args.sql.lstrip().upper().startswith(CHANGES_EVERYTHING)

    def progress_message(self, args) -> str:
        return "Reading the database..." if self.operation == "query" else "Changing the database..."

    def check_secret(self, name: str, value: str) -> str | None:
        if name != "dsn":
            return None
        if OTHER_URL.match(value):
            return ("this is not a SQLite database: give a file's path (data/app.db) or a file: "
                    "URL; a server's URL needs a tool for that server")
        path = _path_of(value, Path.cwd())
        if path.is_file() and not path.read_bytes()[:16].startswith(b"SQLite format 3"):
            return f"{path.name} is not a SQLite file; name the database file itself"
        return None

    async def call(self, args, ctx: ToolContext) -> ToolResult:
        reading = ctx.operation == "query"
        path = _path_of(ctx.settings.dsn, Path(ctx.workdir))
        if reading and not path.is_file():
            return ToolResult.error("there is no database file where the dsn setting points yet; "
                                    "run execute to create it, or ask the builder to check the setting")
        uri = path.as_uri() + ("?mode=ro" if reading else "")
        try:
            db = sqlite3.connect(uri, uri=True)
            try:
                cursor = db.execute(args.sql)
                if reading:
                    return ToolResult.ok(_table(cursor, args.limit))
                db.commit()
                return ToolResult.ok(f"{max(cursor.rowcount, 0)} rows changed")
            finally:
                db.close()
        except sqlite3.Error as exc:
            hint = " (query only reads: use execute to change the database)" if (
                reading and "readonly" in str(exc)) else ""
            return ToolResult.error(f"SQLite refused the statement: {exc}{hint}")


def _path_of(dsn: str, base: Path) -> Path:
    path = Path(unquote(urlsplit(dsn).path) if dsn.startswith("file:") else dsn)
    return path if path.is_absolute() else base / path


def _table(cursor: sqlite3.Cursor, limit: int) -> str:
    names = [column[0] for column in cursor.description or ()]
    rows = cursor.fetchmany(max(limit, 0))
    more = len(cursor.fetchall())
    lines = [" | ".join(names)] + [" | ".join("NULL" if v is None else str(v) for v in row)
                                   for row in rows]
    if more:
        lines.append(f"({more} more rows not shown; raise limit or narrow the query)")
    return "\n".join(lines) if names else "no rows"
