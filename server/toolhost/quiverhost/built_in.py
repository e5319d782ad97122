"""A module with `BUILT_IN = True` (R-builtin-provider): its SCHEMA names a tool
the model's provider runs on its side, so the host never calls execute(). Its
`type` is the AI SDK's provider tool id (`"openai.web_search"`, with the tool's
settings under `args` as the SDK names them), or an OpenAI Responses built-in as
that API writes it (`{"type": "web_search", "search_context_size": "low"}`),
which is read as `openai.<type>` with its keys in the SDK's camelCase. Which
provider takes which id is the studio's business (server/runtime/provider-tools.ts).
"""

from __future__ import annotations

import re
from typing import Any

from quiver import Refused

from .schema import not_json

PROVIDER_ID = re.compile(r"^[a-z][a-z0-9-]*\.[a-z][a-z0-9_]*$")
# The OpenAI Responses API's own tools, written as that API takes them.
RESPONSES_TYPES = ("web_search", "web_search_preview", "file_search", "code_interpreter",
                   "image_generation")
NOT_ARGS = ("type", "name", "description", "title", "parameters", "args")


def _camel(value: Any) -> Any:
    if isinstance(value, dict):
        return {re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), k): _camel(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_camel(v) for v in value]
    return value


def provider_tool(schema: dict) -> tuple[dict | None, str | None]:
    """The provider tool SCHEMA names ({"id", "args"}), or why it names none."""
    kind = schema.get("type")
    if not isinstance(kind, str) or kind == "function":
        return None, ('BUILT_IN = True needs SCHEMA["type"] to name the provider\'s tool, e.g. '
                      '"openai.web_search" or "anthropic.web_search_20250305"')
    if PROVIDER_ID.match(kind):
        args = schema.get("args", {})
        if not isinstance(args, dict):
            return None, 'SCHEMA["args"] must be a dict: the provider tool\'s settings'
        tool = {"id": kind, "args": args}
    elif kind in RESPONSES_TYPES:
        tool = {"id": f"openai.{kind}",
                "args": _camel({k: v for k, v in schema.items() if k not in NOT_ARGS})}
    else:
        return None, (f'SCHEMA["type"] is {kind!r}; name the provider\'s tool as '
                      '"<provider>.<tool>" (e.g. "openai.web_search"), or write one of the OpenAI '
                      f"Responses tools {', '.join(RESPONSES_TYPES)}")
    bad = not_json(tool["args"])
    if bad:
        return None, f"the provider tool's settings are not JSON ({bad} is not serialisable)"
    return tool, None


def never_run(name: str, tool: dict):
    """What stands in for execute(): a call that reaches the host is refused."""
    async def refuse(args: Any, ctx: Any) -> str:
        raise Refused(f"{name} is a tool the model's provider runs ({tool['id']}), so the tool host "
                      "never runs it; it works only inside a run on a model whose provider has it")
    return refuse
