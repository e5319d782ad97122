"""One tools/call: find the offered operation, build its settings from
`_meta`, check and confine its arguments, run it on the calling thread with its
bound watched (deadlines.py), and answer MCP content with an outcome (ok,
refused, failed, transient, timeout) and the duration on every result.
"""

from __future__ import annotations

import inspect
import itertools
import os
import queue
import time
import uuid
from typing import Any, Callable

import quiver
from quiver import Context, Refused, TransientError

from .confine import RootMissing, confine, resolve_root
from .deadlines import DEADLINES, PausableBound
from .protocol import METHOD_NOT_FOUND, RpcError
from .entries import Derived, Op
from .errors import exception_text
from .loader import Tree
from .memory import Memory, memory_error_text
from .reaper import REAPER
from .masking import masker
from .results import NotJson, content_of, cut_long
from .sessions import Sessions
from .settings import SettingsError, build_settings
from .validate import mismatch
from .workers import WORKERS

DEFAULT_SECONDS = 120.0
MAX_SECONDS = 600.0
OVERRUN_ENDED = "notifications/quiver/overrun_ended"


class Control:
    """A call's line to whoever asked for it, for the answers given before the
    call returns: `early` takes the TimeoutError answer when the bound passes,
    or None (no answer at all) when the client cancels. What the call returns
    after that is stale, and the one answering the request drops it."""

    def __init__(self, early: Callable[[dict | None], Any] = lambda answer: None) -> None:
        self.early = early
        self.cancelled = False
        self.bound: PausableBound | None = None

    def cancel(self) -> None:
        self.cancelled = True
        self.early(None)

    def pause(self) -> None:
        if self.bound is not None:
            self.bound.pause()

    def resume(self) -> None:
        if self.bound is not None:
            self.bound.resume()


Studio = Callable[[str, dict], Any]


def _no_studio(method: str, params: dict) -> Any:
    raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")


def _no_notice(method: str, params: dict) -> None:
    """No studio to tell: the host runs under a test or another client."""


class Calls:
    def __init__(self, tree: Tree, workdir: str | None = None, studio: Studio | None = None,
                 notify: Callable[[str, dict], None] | None = None,
                 memory: Memory | None = None) -> None:
        self.tree = tree
        self.workdir = workdir or os.getcwd()
        self.sessions = Sessions()
        # Asks the studio something on behalf of a call and waits (ctx.ask, ctx.system).
        self.studio = studio or _no_studio
        self.notify = notify or _no_notice
        self.memory = memory or Memory(None)
        self._overruns = itertools.count(1)

    def call(self, name: str, arguments: Any, meta: dict | None, *,
             progress: Callable[[str], None] = lambda text: None) -> dict | None:
        """`run` for a caller that must not be held past the bound: the call runs
        on a worker, and this waits for whichever answer comes first."""
        answers: queue.SimpleQueue = queue.SimpleQueue()
        control = Control(lambda answer: answers.put((answer, None)))

        def job() -> None:
            try:
                answers.put((self.run(name, arguments, meta, progress=progress, control=control),
                             None))
            except BaseException as exc:
                answers.put((None, exc))
        WORKERS.submit(job, f"quiver-call-{name}")
        answer, error = answers.get()
        if error is not None:
            raise error
        return answer

    def run(self, name: str, arguments: Any, meta: dict | None, *,
            progress: Callable[[str], None] = lambda text: None,
            control: Control | None = None) -> dict | None:
        """The tools/call result, run on this thread. Past the bound,
        `control.early` gets the TimeoutError answer from the watching thread
        while this one is left to the tool; None when the call is not to be
        answered here (answered so already, or cancelled). An answer carries
        the host's memory when a call leaves it over its soft limit."""
        answer = self._run(name, arguments, meta, progress, control or Control())
        if answer is not None and (over := self.memory.over()):
            answer["_meta"]["quiver/memory"] = over
        return answer

    def _run(self, name: str, arguments: Any, meta: dict | None,
             progress: Callable[[str], None], control: Control) -> dict | None:
        started = time.monotonic()
        meta = meta if isinstance(meta, dict) else {}
        found = self.tree.catalog.find(name)
        if found is None:
            return _answer([_text(self.tree.catalog.unknown(name))], "refused", started)
        op, derived = found
        session = meta.get("quiver/session")
        secrets: list[str] = []
        try:
            settings = None
            if derived.settings:
                settings = build_settings(derived.settings, meta.get("quiver/settings"), derived.path)
                secrets = [str(getattr(settings, n)) for n in derived.settings.secrets
                           if getattr(settings, n) is not None]
            ctx = None
            if _takes_context(op, derived):
                key = meta.get("quiver/idempotency-key")
                witness = quiver._Witness(progress, lambda: control.cancelled,
                                          self._studio_for(control, meta.get("quiver/call")),
                                          key if isinstance(key, str) else None)
                ctx = self._context(derived, session, witness)
            else:
                witness = quiver._Witness()
            kwargs = {} if op.style == "execute" else self._arguments(op, derived, arguments,
                                                                      settings, ctx)
        except Refused as exc:
            return _answer([_text(exception_text(exc))], "refused", started)
        except (SettingsError, RootMissing) as exc:
            return _answer([_text(f"{type(exc).__name__}: {exc}")], "failed", started)

        bound = _bound(op, arguments, meta)
        finished: Callable[[], bool] | None = None
        if bound is not None:
            overrun = next(self._overruns)

            def expire() -> None:
                answer = _answer(
                    [_text(f"TimeoutError: {op.name} did not finish within {bound:g} s; it may "
                           "have partly run, so check its effects before calling it again.")],
                    "timeout", started)
                # Python cannot stop the thread: the studio replaces the host unless
                # OVERRUN_ENDED follows soon (R-host-runaway).
                answer["_meta"]["quiver/overrun"] = {"id": overrun, "timeout_s": bound}
                control.early(answer)
            if ctx is None:  # no way to wait on the studio: the plain, cheaper watch
                watch = DEADLINES.watch(bound, expire)
                finished = lambda: DEADLINES.done(watch)  # noqa: E731
            else:
                control.bound = PausableBound(bound, expire)
                finished = control.bound.done
        token = quiver._CURRENT.set(witness)
        error: BaseException | None = None
        busy = REAPER.enter()
        try:
            if op.style == "execute":
                value = op.func(arguments, ctx)
            elif op.style == "method":
                value = getattr(self._instance(derived, session, ctx), op.attr)(**kwargs)
            elif op.style == "tool":  # a Tool class: its input model, call() (tool_class_run.py)
                value = op.func(kwargs, settings, ctx)
            else:
                value = op.func(**kwargs)
            # Most tools answer a str, never awaitable: its look is skipped (R-host-call-lean).
            if type(value) is not str and inspect.isawaitable(value):
                import asyncio  # only for an async tool: the import is a good part of a host's start

                value = asyncio.run(_awaited(value))
        except BaseException as exc:  # SystemExit from a tool must not end the host
            error = exc
        finally:
            REAPER.leave(busy)
            quiver._CURRENT.reset(token)
        overran = finished is not None and not finished()
        if overran:
            ended: dict[str, Any] = {"id": overrun, "tool": op.name}
            if over := self.memory.over():
                ended["memory"] = over
            self.notify(OVERRUN_ENDED, ended)
        if overran or control.cancelled:
            return None  # answered already, or never to be
        if error is not None:
            outcome = ("refused" if isinstance(error, Refused)
                       else "transient" if isinstance(error, TransientError) else "failed")
            text = (memory_error_text(op.name, error) if isinstance(error, MemoryError)
                    else exception_text(error))
            return _answer([_text(text)], outcome, started, secrets, self.workdir)
        try:
            content = content_of(value, op.name)
        except NotJson as exc:
            return _answer([_text(f"TypeError: {exc}")], "failed", started, secrets)
        return _answer(content, witness.outcome or "ok", started, secrets, self.workdir)

    def _arguments(self, op: Op, derived: Derived, arguments: Any, settings: Any,
                   ctx: Context | None) -> dict:
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise Refused(f"the arguments of {op.name} must be a JSON object of parameter names "
                          "to values")
        known = op.input_schema["properties"]
        for key in arguments:
            if key not in known:
                raise Refused(f"{op.name} takes no argument `{key}`; its arguments are "
                              f"{', '.join(known) or 'none'}")
        root = None
        kwargs: dict[str, Any] = {}
        for param in op.signature.params:
            if param.role == "settings":
                kwargs[param.name] = settings
            elif param.role == "context":
                kwargs[param.name] = ctx
            elif param.name in arguments or (param.role == "path" and "default" in param.schema):
                # A Path's default is confined too: Path(".") means the root, not the host's folder.
                value = arguments.get(param.name, param.schema.get("default"))
                problem = None if value is None and param.nullable else mismatch(
                    param.schema, value, f"`{param.name}` of {op.name}")
                if problem:
                    raise Refused(problem)
                if param.role == "path" and value is not None:
                    root = root or self._root(derived, settings)
                    value = confine(value, root)
                kwargs[param.name] = value
            elif param.required:
                raise Refused(f"{op.name} needs the argument `{param.name}`")
            elif param.fill_none:
                kwargs[param.name] = None
        return kwargs

    def _root(self, derived: Derived, settings: Any):
        value = getattr(settings, derived.settings.root, None)
        if not value:
            raise SettingsError(f"the root setting `{derived.settings.root}` of {derived.path} is "
                                "not set; choose the folder this source is confined to")
        return resolve_root(value, self.workdir)

    def _context(self, derived: Derived, session: str | None,
                 witness: quiver._Witness) -> Context:
        return Context(call_id=str(uuid.uuid4()), workdir=self.workdir, session=session,
                       file=derived.path,
                       tool=lambda name: self._other(name, derived, session, witness),
                       witness=witness)

    def _studio_for(self, control: Control, token: Any) -> Callable[[str, dict], Any]:
        """How this call asks the studio (ctx.ask, ctx.io, ctx.system): its bound waits meanwhile."""
        def reach(method: str, params: dict) -> Any:
            what = {"quiver/ask": "ctx.ask", "quiver/io": "ctx.io"}.get(method, "ctx.system")
            if not isinstance(token, str):
                raise LookupError(f"{what} works only in a run of an agent in the studio; this "
                                  "call was made without one (quiver call, the editor's Try "
                                  "panel, or another MCP client)")
            control.pause()
            try:
                return self.studio(method, {**params, "call": token})
            except RpcError as exc:
                if exc.code == METHOD_NOT_FOUND:
                    raise LookupError(f"{what} needs the Quiver studio; the client that made "
                                      "this call cannot answer it") from None
                raise quiver.CallFailed(exc.message) from None
            except (ConnectionError, TimeoutError) as exc:
                raise quiver.CallFailed(f"{what}: {exc}") from None
            finally:
                control.resume()
        return reach

    def _instance(self, derived: Derived, session: str | None, ctx: Context | None) -> Any:
        cls = derived.cls
        return self.sessions.instance(
            derived, session, lambda: cls(ctx) if derived.init_takes_ctx else cls())

    def _other(self, name: str, asking: Derived, session: str | None,
               witness: quiver._Witness) -> Any:
        """ctx.tool(name): the module of a functions file, or the session's instance."""
        path = name if name.endswith(".py") else f"{name}.py"
        if path == asking.path:
            raise LookupError(f"a file cannot ask for itself with ctx.tool({name!r}); inside "
                              f"{asking.path} use self, or call the function directly")
        catalog = self.tree.catalog
        derived = catalog.file(path)
        if derived is None:
            stems = ", ".join(d.stem for d in catalog.files if d.kind != "helper")
            raise LookupError(f"no file {path} in this tree; ctx.tool takes the name of one of "
                              f"its files: {stems or 'none'}")
        if derived.module is None or not catalog.offered(derived):
            raise LookupError(f"{path} has errors, so it offers nothing; fix it first")
        if derived.cls is None:
            return derived.module
        return self._instance(derived, session, self._context(derived, session, witness))


def _bound(op: Op, arguments: Any, meta: dict) -> float | None:
    """The op's own timeout wins; else the caller's; else 120 s; never over 600 s."""
    b = op.behaviour
    if b["interactive"]:
        return None
    asked = arguments.get("timeout") if isinstance(arguments, dict) else None
    if b["arg_timeout"] and _seconds(asked):
        return min(float(asked), b["max_timeout"], MAX_SECONDS)
    for seconds in (b["timeout"], meta.get("quiver/timeout")):
        if _seconds(seconds):
            return min(float(seconds), MAX_SECONDS)
    return DEFAULT_SECONDS


def _takes_context(op: Op, derived: Derived) -> bool:
    """Whether the call hands the tool a Context; most do not, and building one
    (a uuid, closures) is a good part of a no-op call's time."""
    if op.style in ("execute", "tool") or (op.style == "method" and derived.init_takes_ctx):
        return True
    return op.signature is not None and any(p.role == "context" for p in op.signature.params)


def _seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


def _answer(content: list[dict], outcome: str, started: float,
            secrets: list[str] | tuple = (), workdir: str | None = None) -> dict:
    meta: dict[str, Any] = {"quiver/outcome": outcome,
                            "quiver/duration_ms": round((time.monotonic() - started) * 1000)}
    # Every form of every secret, before a long text is written to its file (R-secret-mask).
    mask = masker(secrets) if secrets else None
    for item in content:
        if item["type"] == "text":
            item["text"], kept = cut_long(mask(item["text"]) if mask else item["text"], workdir)
            if kept and "quiver/truncated" not in meta:
                meta["quiver/truncated"] = kept
    return {"content": content, "isError": outcome != "ok", "_meta": meta}
