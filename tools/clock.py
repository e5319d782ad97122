"""The current date and time, written as a module with SCHEMA and execute (R-module-shape)."""

import zoneinfo
from datetime import datetime, timezone

from quiver import note_tool_refusal

SCHEMA = {
    "type": "function",
    "name": "clock",
    "title": "Clock",
    "description": "Tell the current date and time in one IANA time zone (UTC when none is given); "
                   "refuses zone names it does not know rather than guessing.",
    "parameters": {
        "type": "object",
        "properties": {"zone": {"type": "string",
                                "description": "IANA time zone, e.g. Europe/Paris; UTC when omitted."}},
        "required": [],
        "additionalProperties": False,
    },
}

RISK = "read"
REPLAY = "safe"
ANNOUNCE = "Let me look at the clock..."
HEARTBEAT = ["Still reading the clock..."]
COMPLETE = "Here's the time:"
FAIL = "I couldn't read the clock just now."
EXPRESSIONS = {"focus": "thinking", "fail": "confused"}


def check() -> bool:
    return True  # a clock is always there; a tool that needs a daemon would probe it here


async def execute(args, ctx):
    zone = (args or {}).get("zone") or "UTC"
    try:
        tz = timezone.utc if zone == "UTC" else zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        note_tool_refusal(ctx)
        return (f"I don't know the time zone {zone!r}; give an IANA name such as "
                "Europe/Paris or America/New_York.")
    now = datetime.now(tz)
    return f"{now:%A %d %B %Y, %H:%M:%S} ({zone}, UTC{now:%z})"
