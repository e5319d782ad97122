"""What a tool returns, as MCP content: a str as text, any other JSON value as
its JSON text, `quiver.Image` as an image; anything else is an error before it
reaches the wire. Long text is cut and kept whole in a file (R-result-cut).
"""

from __future__ import annotations

import base64
import json
import os
import tempfile
import uuid
from typing import Any

from quiver import Image

from .schema import not_json

CUT_OVER = 20_000
HEAD = 4_000
TAIL = 1_000


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


def cut_long(text: str) -> tuple[str, str | None]:
    """Text over 20,000 characters: kept whole in /tmp/tool-<uuid>.txt and cut to
    its first 4,000 and last 1,000, with a note naming the file between them.
    The text is masked already (masking.py): the file is as the studio may see it."""
    if len(text) <= CUT_OVER:
        return text, None
    path = os.path.join(tempfile.gettempdir(), f"tool-{uuid.uuid4()}.txt")
    with open(path, "w", encoding="utf-8") as kept:
        kept.write(text)
    note = (f"\n\n[... {len(text) - HEAD - TAIL:,} characters left out here: the result was "
            f"{len(text):,} characters long. The whole of it is in {path}; read that file "
            "for the part in between ...]\n\n")
    return text[:HEAD] + note + text[-TAIL:], path
