"""Bench (a): what deriving a tool file's catalog entry costs beside importing it.

    python3 bench/host_derive.py [--iterations 200] [--json]

Writes a 300-line tool file into a temp tree, then in the same run times
(1) a fresh derivation of its catalog entry per iteration (the module
re-imported untimed before each, so nothing derived is reused), and (2) a
bare `import` of the same file per iteration (dropped from sys.modules first).
Prints the median and p95 of each and their ratio.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HOST = Path(__file__).resolve().parent.parent / "server" / "toolhost"
sys.path.insert(0, str(HOST))

from quiverhost.derive import derive_file  # noqa: E402
from tests.support import big_tool_file  # noqa: E402

MODULE = "bench_generated_tool"


def fresh_import():
    sys.modules.pop(MODULE, None)
    return importlib.import_module(MODULE)


def summary(timings: list[float]) -> dict:
    ordered = sorted(timings)
    return {"median_ms": round(statistics.median(ordered) * 1000, 3),
            "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="quiver-bench-") as folder:
        source = big_tool_file()
        path = Path(folder) / f"{MODULE}.py"
        path.write_text(source, encoding="utf-8")
        sys.path.insert(0, folder)
        fresh_import()  # the first import writes the bytecode cache every later one reads

        derive, imports = [], []
        tools = 0
        for _ in range(args.iterations):
            module = fresh_import()
            started = time.perf_counter()
            entry = derive_file(path.name, module, source).entry()
            derive.append(time.perf_counter() - started)
            tools = len(entry["tools"])
            if entry["errors"]:
                raise SystemExit(f"the generated file has errors: {entry['errors']}")
        for _ in range(args.iterations):
            started = time.perf_counter()
            fresh_import()
            imports.append(time.perf_counter() - started)
        sys.path.remove(folder)
        sys.modules.pop(MODULE, None)

    result = {"lines": len(source.splitlines()), "tools": tools, "iterations": args.iterations,
              "derive": summary(derive), "import": summary(imports)}
    result["ratio_derive_to_import"] = round(result["derive"]["median_ms"]
                                             / result["import"]["median_ms"], 2)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['lines']}-line tool file, {tools} tools, {args.iterations} iterations")
        for name in ("derive", "import"):
            print(f"  {name:<7} median {result[name]['median_ms']:8.3f} ms   "
                  f"p95 {result[name]['p95_ms']:8.3f} ms")
        print(f"  derive / import (median): {result['ratio_derive_to_import']}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
