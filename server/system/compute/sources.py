"""quiver.sources in a compute_exec program (R-code-import): every source the
agent was given, as a module of plain functions, each call going back to the
studio over the program's channel (fd 3) and through the run's rules there.

bootstrap.py runs this text as the module `quiver.sources` and calls
install(config): config is {"fd": 3, "folder": dir|None, "index": text,
"modules": [...]} from modules.ts, or {"error": sentence} where no studio
is there to call back (outside a run). Stdlib only, like the host.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import threading
import types

from quiver import CallFailed, Refused, TransientError

PACKAGE = __name__


class _Type:
    """An annotation that prints as Python writes the type (`int | None`), never evaluated."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class _Channel:
    """One request at a time on the program's line to the studio: a JSON line out, its answer back."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.pending = b""
        self.count = 0
        os.set_inheritable(fd, False)  # a command the program starts does not get the studio's line

    def ask(self, request: dict) -> dict:
        with self.lock:
            self.count += 1
            data = (json.dumps({"id": self.count, **request}, ensure_ascii=False) + "\n").encode()
            while data:
                data = data[os.write(self.fd, data):]
            while b"\n" not in self.pending:
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    raise CallFailed("the studio stopped answering this program's calls")
                self.pending += chunk
            line, _, self.pending = self.pending.partition(b"\n")
        reply = json.loads(line)
        return reply if isinstance(reply, dict) else {}


def _outcome(reply: dict, called: str) -> str:
    """The studio's answer as the program sees it: the text, or the exception that says why not."""
    if "error" in reply:
        raise CallFailed(f"{called}: {reply['error']}")
    text, outcome = str(reply.get("text", "")), reply.get("outcome")
    if outcome == "ok":
        return text
    if outcome == "refused":
        raise Refused(text)
    if outcome == "transient":
        raise TransientError(text)
    raise CallFailed(text, outcome if isinstance(outcome, str) else "failed")


def _signature(spec: dict) -> inspect.Signature:
    params = []
    for p in spec["parameters"]:
        if not p["name"].isidentifier():
            continue
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if p["positional"] else inspect.Parameter.KEYWORD_ONLY
        default = inspect.Parameter.empty if p["required"] else p.get("default")
        params.append(inspect.Parameter(p["name"], kind, default=default, annotation=_Type(p["type"])))
    if any(not p["name"].isidentifier() for p in spec["parameters"]):
        params.append(inspect.Parameter("arguments", inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(params, return_annotation=str)


def _arguments(spec: dict, called: str, args: tuple, kwargs: dict) -> dict:
    """The call's arguments by the operation's parameter names: positions mapped, omitted optionals left out."""
    positional = [p["name"] for p in spec["parameters"] if p["positional"]]
    if len(args) > len(positional):
        named = ", ".join(positional) or "none"
        raise TypeError(f"{called}() takes {len(positional)} positional argument(s) ({named}); pass the rest by keyword")
    arguments = dict(zip(positional, args))
    for name, value in kwargs.items():
        if name in arguments:
            raise TypeError(f"{called}() got two values for {name}")
        arguments[name] = value
    missing = [p["name"] for p in spec["parameters"] if p["required"] and p["name"] not in arguments]
    if missing:
        raise TypeError(f"{called}() is missing its required argument(s): {', '.join(missing)}")
    optional = {p["name"] for p in spec["parameters"] if not p["required"] and "default" not in p}
    return {k: v for k, v in arguments.items() if not (v is None and k in optional)}


def _function(channel: _Channel, module: str, spec: dict):
    called = f"quiver.sources.{module}.{spec['name']}"

    def call(*args, **kwargs) -> str:
        arguments = _arguments(spec, spec["name"], args, kwargs)
        try:
            json.dumps(arguments)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{called}'s arguments must be JSON values (str, int, float, bool, None, list, dict): {exc}") from None
        return _outcome(channel.ask({"source": module, "function": spec["name"], "arguments": arguments}), called)

    call.__name__ = call.__qualname__ = spec["name"]
    call.__module__ = f"{PACKAGE}.{module}"
    described = [f"    {p['name']}: {p['description']}" for p in spec["parameters"] if p["description"]]
    call.__doc__ = spec["summary"] + ("\n\nArgs:\n" + "\n".join(described) if described else "")
    call.__signature__ = _signature(spec)
    return call


def _by_operation(channel: _Channel, module: str):
    def call(operation: str, /, **arguments) -> str:
        """Call one of this source's operations by its own name (`get-tiny-image`), with keyword arguments."""
        called = f"quiver.sources.{module}.call({operation!r})"
        return _outcome(channel.ask({"source": module, "operation": str(operation), "arguments": arguments}), called)
    return call


class _Source(types.ModuleType):
    """One source: its functions, `call(operation, **arguments)` by the operation's own name, and its INDEX.md."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        given = ", ".join(self.__all__) or "none of its operations"
        raise AttributeError(f"{name} of {self.__name__} is not one of this agent's operations; it was given {given}")


class _Finder:
    """`import quiver.sources.<name>` for a source the agent does not have: a sentence naming what it has."""

    def __init__(self, why) -> None:
        self.why = why

    def find_spec(self, fullname, path=None, target=None):
        if fullname.startswith(PACKAGE + ".") and fullname not in sys.modules:
            raise ModuleNotFoundError(self.why(fullname), name=fullname)
        return None


def install(config: dict) -> None:
    package = sys.modules[PACKAGE]
    package.__path__ = []
    package.FOLDER = config.get("folder")
    import quiver
    quiver.sources = package
    if config.get("error"):
        sys.meta_path.insert(0, _Finder(lambda fullname: f"{fullname} cannot be imported: {config['error']}"))
        return
    channel = _Channel(int(config["fd"]))
    modules = config.get("modules") or []
    package.__doc__ = config.get("index") or package.__doc__
    package.__all__ = [m["name"] for m in modules]
    for spec in modules:
        module = _Source(f"{PACKAGE}.{spec['name']}", spec.get("doc"))
        functions = {fn["name"]: _function(channel, spec["name"], fn) for fn in spec["functions"]}
        module.__dict__.update(functions)
        module.__all__ = list(functions)
        module.INDEX = os.path.join(package.FOLDER, spec["name"], "INDEX.md") if package.FOLDER else None

        if "call" not in functions:
            module.call = _by_operation(channel, spec["name"])
        sys.modules[module.__name__] = module
        setattr(package, spec["name"], module)
    have = ", ".join(f"{PACKAGE}.{m['name']}" for m in modules) or "none"
    why = lambda fullname: f"{fullname} is not one of this agent's sources; it has {have}"  # noqa: E731

    def missing(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(why(f"{PACKAGE}.{name}"))

    package.__getattr__ = missing
    sys.meta_path.insert(0, _Finder(why))
