"""Entry point of the Quiver tool host.

    python3 run.py serve --tree DIR [--watch-interval 1.0] [--limit-as MB] [--limit-cpu S]
                         [--limit-nofile N] [--limit-nproc N] [--memory-soft MB] [--site DIR]
    python3 run.py deps --tree DIR --site DIR --log FILE [--budget 240] [--pip-arg ARG ...]

`serve` speaks MCP (newline-delimited JSON-RPC) on stdin/stdout; `deps` installs
the tree's dependencies and prints one JSON line.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path[0] != HERE:
    sys.path.insert(0, HERE)

# A cap on address space, not on use, whoever starts the host (R-host-memory): a
# runaway allocation ends in a MemoryError its tool answers, not in the machine swapping.
DEFAULT_LIMIT_AS_MB = 2048
M_ARENA_MAX = -8  # glibc's mallopt option


def _fewer_arenas() -> None:
    """glibc reserves 64 MB of address space per thread arena, up to eight per
    core: a host with a few dozen threads would reach the address-space cap while
    using little memory. Two arenas, for the host only (its children keep theirs)."""
    try:
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, 2)
    except (OSError, AttributeError):
        pass  # not glibc: its allocator reserves no such arenas


def _own_group() -> None:
    """Lead a process group, so the studio can stop the host and every process its
    tools started with one kill (R-host-runaway). Inside bubblewrap the host leads a
    session already, and the sandbox's end takes its processes with it. Not on a
    terminal (`quiver mcp` typed into by hand): a background group that reads one is stopped."""
    if os.isatty(0):
        return
    try:
        os.setpgid(0, 0)
    except OSError:
        pass


def _limits(args: argparse.Namespace) -> None:
    import resource

    wanted = [(resource.RLIMIT_AS, args.limit_as and args.limit_as * 1024 * 1024),
              (resource.RLIMIT_CPU, args.limit_cpu), (resource.RLIMIT_NOFILE, args.limit_nofile),
              (resource.RLIMIT_NPROC, args.limit_nproc)]
    for kind, value in wanted:
        if value:
            _, hard = resource.getrlimit(kind)
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (value, value))


def _protocol_streams():
    """Keep fds 0 and 1 for the protocol alone: a tool's print(), input() or a
    child process it starts must not write into (or read from) the JSON-RPC stream."""
    # Buffered both ways: readline on a raw fd reads a byte per system call, and a
    # raw write may write only part of a long message.
    protocol_in = os.fdopen(os.dup(0), "rb")
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull, encoding="utf-8")
    return protocol_in, protocol_out


def serve(args: argparse.Namespace) -> int:
    tree = os.path.abspath(args.tree)
    if not os.path.isdir(tree):
        print(f"quiver-toolhost: the tree {tree} is not a folder", file=sys.stderr)
        return 2
    if args.site and os.path.isdir(args.site):
        sys.path.insert(1, os.path.abspath(args.site))  # before site-packages: the tree's pins win
    # R-file-helper: the tools folder and its parent are both on sys.path. Last, so a
    # tree file never shadows a module the host imports.
    sys.path.extend([tree, os.path.dirname(tree)])
    _limits(args)
    _fewer_arenas()
    _own_group()
    reader, writer = _protocol_streams()

    # The host's own modules keep their bytecode beside them where that folder is writable
    # (an unsandboxed host; the sandbox binds it read-only), so the next start reads them
    # compiled rather than compiling them again (R-cli-call-fast). Nothing imported after
    # this is cached: a tree's files compile from source anyway, and a tool's imports
    # must not leave bytecode in the tree or the site folder.
    sys.dont_write_bytecode = False
    from quiverhost.loader import Tree
    from quiverhost.protocol import Connection
    from quiverhost.reaper import REAPER
    from quiverhost.server import Host
    sys.dont_write_bytecode = True

    why = REAPER.start()  # before any other thread: signals and the subreaper are the main thread's
    if why:
        print(f"quiver-toolhost: children of tools are not reaped: {why}", file=sys.stderr)
    Host(Tree(tree), Connection(reader, writer), args.watch_interval,
         soft_memory_mb=args.memory_soft).serve()
    return 0


def deps(args: argparse.Namespace) -> int:
    from quiverhost.deps import install

    summary = install(args.tree, args.site, args.log, args.budget, args.pip_arg)
    print(json.dumps(summary), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="run.py", description="The Quiver tool host.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve a tree over MCP on stdio")
    run.add_argument("--tree", required=True, help="the folder of tool files")
    run.add_argument("--watch-interval", type=float, default=1.0,
                     help="seconds between looks for changed files (0: only on list and call)")
    run.add_argument("--limit-as", type=int, default=DEFAULT_LIMIT_AS_MB,
                     help=f"address space, in MB (default {DEFAULT_LIMIT_AS_MB}; 0: no cap)")
    run.add_argument("--limit-cpu", type=int, help="CPU seconds")
    run.add_argument("--limit-nofile", type=int)
    run.add_argument("--limit-nproc", type=int)
    run.add_argument("--memory-soft", type=int,
                     help="resident MB over which a call's answer says so, for the studio to "
                          "replace the host")
    run.add_argument("--site", help="folder of installed dependencies (from `deps`)")
    run.set_defaults(func=serve)
    install = commands.add_parser("deps", help="install the tree's dependencies")
    install.add_argument("--tree", required=True,
                         help="the folder of tool files; the dependency files are read from its parent")
    install.add_argument("--site", required=True)
    install.add_argument("--log", required=True)
    install.add_argument("--budget", type=float, default=240.0)
    install.add_argument("--pip-arg", action="append", default=[],
                         help="one more argument for pip (repeat it)")
    install.set_defaults(func=deps)
    args = parser.parse_args(_join_pip_args(sys.argv[1:] if argv is None else argv))
    return args.func(args)


def _join_pip_args(argv: list[str]) -> list[str]:
    """`--pip-arg --no-index` as `--pip-arg=--no-index`: argparse would read a
    value that starts with a dash as an option of its own."""
    joined, index = [], 0
    while index < len(argv):
        if argv[index] == "--pip-arg" and index + 1 < len(argv):
            joined.append(f"--pip-arg={argv[index + 1]}")
            index += 2
        else:
            joined.append(argv[index])
            index += 1
    return joined


if __name__ == "__main__":
    sys.exit(main())
