"""Tickets in the team's tracker: open one or look one up (a dry run that sends nothing)."""

from typing import Literal

from quiver import Refused, Secret

TITLE = "Tickets"
RISK = "network"
CREDENTIAL_HELP = ("A tracker API token: it starts with tkt_ and is 24 characters or more. "
                   "Create one in the tracker under Profile > Tokens, save it as a secret, "
                   "and pick it here by name.")
TRACKER = "https://tracker.example/api"


class Settings:
    """What the builder sets once for this source.

    Attributes:
        token: API token the tracker accepts for this team.
        project: Project key new tickets are opened in.
    """

    token: Secret
    project: str = "OPS"


def check_secret(name: str, value: str) -> str | None:
    """Rejects a token that is set but cannot be one (R-secret-check: set is not the same as usable)."""
    if name == "token" and not (value.startswith("tkt_") and len(value) >= 24):
        return "this is not a tracker token: a token starts with tkt_ and is 24 characters or more"
    return None


def open(title: str, body: str, priority: Literal["low", "normal", "high"] = "normal", *,
         settings: Settings) -> dict:
    """Open one ticket in the builder's project and answer the request it would send (a dry run: nothing leaves this machine).

    Args:
        title: One line saying what is wrong.
        body: What happened, what was expected, and how to see it again.
        priority: How soon someone should look.
    """
    if not title.strip():
        raise Refused("a ticket needs a title; write one line saying what is wrong")
    return {
        "would_send": f"POST {TRACKER}/projects/{settings.project}/tickets",
        "authorization": "a bearer token from the settings (never shown)",
        "ticket": {"title": title.strip(), "body": body, "priority": priority},
    }


def lookup(key: str, settings: Settings) -> dict:
    """Look up one ticket by its key, such as OPS-12, and answer the request it would send (a dry run).

    Args:
        key: The ticket's key: project, dash, number.
    """
    project, _, number = key.partition("-")
    if not project or not number.isdigit():
        raise ValueError(f"{key!r} is not a ticket key; a key looks like {settings.project}-12")
    return {"would_send": f"GET {TRACKER}/tickets/{project.upper()}-{number}",
            "authorization": "a bearer token from the settings (never shown)"}
