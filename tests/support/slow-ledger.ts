// A manual tool bounded to one second that sleeps as long as it is asked: a call told to take longer times out with its
// outcome unknown, so its run stops on a call that may have run (R-journal-timeout). The recovery tests share it.
export const SLOW_LEDGER = `"""A ledger that takes its time."""

import time

from quiver import tool


@tool(timeout=1)
def post(seconds: float) -> str:
    """Post an entry.

    Args:
        seconds: How long it takes.
    """
    time.sleep(seconds)
    return "posted"
`;
