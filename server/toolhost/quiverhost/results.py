"""What a tool returns, as MCP content: a str as text, any other JSON value as
its JSON text, `quiver.Image` as an image; anything else is an error before it
reaches the wire. Long text is cut and kept whole in a file (R-result-cut, R-cut-kept).
"""

from __future__ import annotations

import base64
import json
import os
from typing import Any

from quiver import Image

from .kept import NotKept, keep_whole
from .schema import not_json

CUT_OVER = 20_000
HEAD = 4_000
TAIL = 1_000
# How the note names where the file is; the studio, moving the file into a run's workspace, rewrites it (R-cut-kept).
HOST_FOLDER = "(in the tool host's working folder)"


class NotJson(Exception):
    """The tool returned something JSON cannot carry; the message says what."""


def content_of(value: Any, tool_name: str) -> list[dict]:
    if isinstance(value, Image):
        return [_image(value)]
    if isinstance(value, (list, tuple)) and any(isinstance(v, Image) for v in value):
        return [_image(v) if isinstance(v, Image) else {"type": "text", "text": _text(v, tool_name)}
                for v in value]
    return [{"type": "text", "text": _text(value, tool_name)}]


def _text(value: Any, tool_name: str) -> str:
    if isinstance(value, str):
        return str(value)
    bad = not_json(value)
    if bad:
        raise NotJson(f"the result of {tool_name} is not JSON ({bad} is not serialisable); "
                      "return str, int, float, bool, None, list or dict")
    return json.dumps(value, ensure_ascii=False)


def _image(image: Image) -> dict:
    return {"type": "image", "data": base64.b64encode(image.data).decode("ascii"),
            "mimeType": image.mime_type}


def cut_long(text: str, workdir: str | None = None) -> tuple[str, str | None]:
    """Text over 20,000 characters: kept whole in .results/ of the host's working
    folder (kept.py) and cut to its first 4,000 and last 1,000, with a note naming
    the file between them; the absolute path of the file, or None when it could
    not be kept (the note says why). The text is masked already (masking.py): the
    file is as the studio may see it."""
    if len(text) <= CUT_OVER:
        return text, None
    try:
        relative, path = keep_whole(text, workdir or os.getcwd())
        where: str | None = f"{relative} {HOST_FOLDER}"
    except NotKept as exc:
        path, where = None, None
        why = str(exc)
    left = (f"\n\n[... {len(text) - HEAD - TAIL:,} characters left out here: the result was "
            f"{len(text):,} characters long. ")
    rest = (f"The whole of it is in {where}; read that file for the part in between ...]\n\n"
            if where else f"The whole of it could not be kept ({why}) ...]\n\n")
    return text[:HEAD] + left + rest + text[-TAIL:], path
