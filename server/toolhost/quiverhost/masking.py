"""Masking a bound secret in a call's text (R-secret-mask), in the forms tools
print it in, before the text is answered or a long result kept in a file
(R-result-cut): the value itself, base64 (standard and URL-safe, padded or not,
and inside a longer base64 text such as a Basic auth header), URL-encoded (as
encodeURIComponent, encodeURI, form encoding and Python's quote and quote_plus
write it, hex in either case), hex (small letters or capitals) and escaped
inside a JSON string (json.dumps with or without ensure_ascii, JSON.stringify,
PHP's \\/, Go's \\u003c, and escaped twice). These are the forms the studio's
masker (server/secrets/mask.ts) looks for, so the two agree on what a reader
may see. All are plain substrings: a 64 KB key meets no pattern-size limit.

A value shorter than MASK_FROM characters is masked only where a whole text is
the value (or one of its forms): inside a sentence it would hide ordinary
words and tell a reader what the value is. The empty string never.
"""

from __future__ import annotations

import base64
import functools
import json
import re
import string
from typing import Callable, Iterable

MASK = "***"
MASK_FROM = 4

_ALNUM = string.ascii_letters + string.digits
# What each common URL encoder leaves as it is, and whether it writes a space as +.
_ENCODERS = [(frozenset(keep), plus) for keep, plus in (
    (_ALNUM + "-_.!~*'()", False),                # encodeURIComponent
    (_ALNUM + ";,/?:@&=+$-_.!~*'()#", False),     # encodeURI
    (_ALNUM + "*-._", True),                      # form encoding (URLSearchParams, HTML forms)
    (_ALNUM + "_.-~", False),                     # Python's quote(safe=""), RFC 3986
    (_ALNUM + "_.-~", True),                      # Python's quote_plus
    (_ALNUM + "_.-~/", False),                    # Python's quote
)]
_LOWER_ESCAPE = re.compile(r"%[0-9A-F]{2}")
_ESCAPE = re.compile(r"\\\\|\\u[0-9a-f]{4}")
# Go's encoding/json escapes these too, so that its JSON is safe inside HTML.
_HTML_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: U+FFFD's bytes, as the studio's Buffer writes it
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode()


@functools.lru_cache(maxsize=1024)
def _escape(ch: str) -> str:
    return "".join(f"%{byte:02X}" for byte in _utf8(ch))


def _percent(text: str, keep: frozenset, plus: bool) -> str:
    return "".join(ch if ch in keep else "+" if plus and ch == " " else _escape(ch) for ch in text)


def _url_forms(text: str) -> list[str]:
    forms = []
    for keep, plus in _ENCODERS:
        upper = _percent(text, keep, plus)
        forms += [upper, _LOWER_ESCAPE.sub(lambda m: m.group().lower(), upper)]
    return forms


def _json(text: str) -> str:
    """Inside a JSON string as JSON.stringify and json.dumps(ensure_ascii=False) write it."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _ascii(text: str, upper: bool = False) -> str:
    """As json.dumps writes it by default: every UTF-16 unit outside printable
    ASCII as \\uXXXX, in small letters (or capitals for `upper`)."""
    written = json.dumps(text)[1:-1]
    return _ESCAPE.sub(_upper_escape, written) if upper else written


def _upper_escape(match: re.Match) -> str:
    # An escaped backslash is matched whole, so the "u" after it is never read as an escape.
    escape = match.group()
    return escape if escape == "\\\\" else "\\u" + escape[2:].upper()


def _json_forms(text: str) -> list[str]:
    once = [_json(text), _ascii(text), _ascii(text, upper=True)]
    go = "".join(_HTML_SAFE.get(ch, ch) for ch in once[0])
    twice = [twice for form in once[:2] for twice in (_json(form), _ascii(form))]
    return [f for form in once for f in (form, form.replace("/", "\\/"))] + [go] + twice


def _url_safe(b64: str) -> str:
    return b64.replace("+", "-").replace("/", "_")


def _base64_cores(data: bytes) -> list[str]:
    """The part of a base64 text that depends on the value alone when it sits at
    each byte offset (0, 1, 2) of a longer encoded text, as the password does in
    base64("user:password")."""
    cores = []
    for offset in (0, 1, 2):
        b64 = base64.b64encode(bytes(offset) + data).decode("ascii")
        core = b64[-(-8 * offset // 6):(8 * (offset + len(data))) // 6]
        if len(core) >= MASK_FROM:
            cores.append(core)
    return cores


def forms_of(value: str) -> list[str]:
    """The value and every form of it to look for, longest first, so a whole
    form wins over a part of it."""
    data = _utf8(value)
    b64 = base64.b64encode(data).decode("ascii")
    bare = b64.rstrip("=")
    encodings = [value, b64, bare, _url_safe(b64), _url_safe(bare), data.hex(), data.hex().upper()]
    for core in _base64_cores(data):
        encodings += [core, _url_safe(core)]
    forms = {f for form in encodings for f in (form, *_url_forms(form), *_json_forms(form))}
    return sorted((form for form in forms if form), key=len, reverse=True)


def masker(values: Iterable[str]) -> Callable[[str], str]:
    """A function that masks text with *** for each of these values' forms."""
    unique = {value for value in values if isinstance(value, str) and value}
    anywhere = sorted({form for value in unique if len(value) >= MASK_FROM
                       for form in forms_of(value)}, key=len, reverse=True)
    whole = {form for value in unique if len(value) < MASK_FROM for form in forms_of(value)}

    def mask(text: str) -> str:
        if not text:
            return text
        if text in whole:
            return MASK
        for form in anywhere:
            if form in text:
                text = text.replace(form, MASK)
        return text

    return mask
