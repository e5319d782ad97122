"""quiver/offered: which of a run's checked tools its module's check() holds
back right now (R-check-turn). The studio asks once per turn, naming only the
tools whose offering depends on a check(); the answer is the CheckGate's, so
tools/list, the catalog and a run agree within the gate's 30 s.
"""

from __future__ import annotations

from typing import Any

from .catalog import Catalog, CheckGate
from .protocol import INVALID_PARAMS, RpcError


def held(catalog: Catalog, gate: CheckGate, params: dict[str, Any]) -> dict:
    names = params.get("names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RpcError(INVALID_PARAMS, "quiver/offered needs `names`, a list of tool names")
    max_age = params.get("max_age_s")
    if max_age is not None and (isinstance(max_age, bool) or not isinstance(max_age, (int, float))):
        raise RpcError(INVALID_PARAMS, "quiver/offered's `max_age_s` is a number of seconds")
    answer: dict[str, str] = {}
    for name in names[:1000]:
        found = catalog.find(name)
        if found is None or found[0].check is None:
            # Gone from the tree or no longer checked: a call answers for itself.
            continue
        why = gate.why_not(found[0].check, max_age)
        if why is not None:
            answer[name] = why
    return {"held": answer}
