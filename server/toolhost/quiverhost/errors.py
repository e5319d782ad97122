"""How an exception reads wherever the host reports one: `<Type>: <message>`
(R-result-exception), and the line of a given file it was raised from."""

from __future__ import annotations


def exception_text(exc: BaseException) -> str:
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def line_in_file(exc: BaseException, filename: str) -> int:
    """The deepest line of `filename` in the traceback (1 when it is not there)."""
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return exc.lineno or 1
    line = 1
    frame = exc.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == filename:
            line = frame.tb_lineno
        frame = frame.tb_next
    return line


def import_error_text(exc: BaseException, filename: str) -> str:
    """The interpreter's own words; a file's own syntax error without its name again."""
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return f"{type(exc).__name__}: {exc.msg}"
    return exception_text(exc)
