"""Reaping what the tools' processes leave behind (R-host-reap). The host is a
child subreaper, so the orphans of a tool's processes become its children
rather than init's (which in a container may reap late or never), and it reaps
a child once nothing can still wait for it.

Nothing here may steal an exit status a tool waits for (subprocess.run would
then read 0). Linux files each child under the thread that forked it, and an
adopted orphan under the main thread, which runs no tool code. So a zombie is
reaped only when the thread it is filed under is one of the host's own and not
running tool code at that moment (a thread a tool started may be waiting in
os.system or os.waitpid), and no live Popen or multiprocessing process still
holds its pid (a tool may keep one and wait for it in a later call).
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import subprocess
import sys
import threading
import traceback

PR_SET_CHILD_SUBREAPER = 36


class Reaper:
    def __init__(self) -> None:
        # Native thread id -> how deep in tool code it is (a call can run another).
        self._busy: dict[int, int] = {}
        # Threads that had zombies while busy: swept again when their call ends.
        self._deferred: set[int] = set()
        self._wake_fd: int | None = None

    def start(self) -> str | None:
        """Adopt orphans and reap on SIGCHLD; from the main thread, before the
        others start. Why it could not, or None."""
        if not os.path.exists(f"/proc/self/task/{threading.get_native_id()}/children"):
            return "this kernel does not list a thread's children (/proc/.../children)"
        try:
            prctl = ctypes.CDLL(None, use_errno=True).prctl
            if prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
                return f"prctl(PR_SET_CHILD_SUBREAPER) failed: {os.strerror(ctypes.get_errno())}"
        except (OSError, AttributeError) as exc:  # not Linux, or no libc to call
            return f"no child subreaper here ({exc})"
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        # The C-level handler writes to the pipe from whichever thread takes the
        # signal, so the reaper wakes even while the main thread sits in a wait;
        # the Python handler itself has nothing to do.
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        signal.siginterrupt(signal.SIGCHLD, False)  # SA_RESTART: tools' system calls go on
        signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
        self._wake_fd = write_end
        threading.Thread(target=self._run, args=(read_end,), name="quiver-reaper",
                         daemon=True).start()
        return None

    def enter(self) -> int:
        """This thread starts running tool code; the id for `leave`."""
        tid = threading.get_native_id()
        self._busy[tid] = self._busy.get(tid, 0) + 1  # only this thread writes its key
        return tid

    def leave(self, tid: int) -> None:
        depth = self._busy[tid] - 1
        if depth:
            self._busy[tid] = depth
            return
        del self._busy[tid]
        if tid in self._deferred:  # read after the delete: see _sweep for the other half
            self._deferred.discard(tid)
            self._wake()

    def _wake(self) -> None:
        if self._wake_fd is not None:
            try:
                os.write(self._wake_fd, b"\0")
            except BlockingIOError:
                pass  # a wake-up is pending already

    def _run(self, read_end: int) -> None:
        while True:
            os.read(read_end, 512)  # one read takes a burst of signals
            try:
                self._sweep()
            except Exception:
                traceback.print_exc(file=sys.stderr)

    def _sweep(self) -> None:
        free: list[int] = []
        own = _own_threads()
        for task in os.listdir("/proc/self/task"):
            tid = int(task)
            exited = [pid for pid in _children(tid) if _exited(pid)]
            if not exited or tid not in own:
                continue
            if tid in self._busy:
                self._deferred.add(tid)
                if tid in self._busy:  # added before its call ended: leave() wakes us
                    continue
                self._deferred.discard(tid)
            free.extend(exited)
        if free:
            held = _held()
            for pid in free:
                if pid not in held:
                    try:
                        os.waitpid(pid, os.WNOHANG)
                    except ChildProcessError:
                        pass  # a tool's own wait took it meanwhile


def _own_threads() -> set[int]:
    """The host's threads (all named quiver-..., a worker after the job it runs)."""
    main = threading.main_thread()
    return {t.native_id for t in threading.enumerate()
            if t is main or t.name.startswith("quiver-")}


def _children(tid: int) -> list[int]:
    try:
        with open(f"/proc/self/task/{tid}/children", encoding="ascii") as listing:
            return [int(pid) for pid in listing.read().split()]
    except OSError:  # the thread ended meanwhile
        return []


def _exited(pid: int) -> bool:
    """Whether `pid` is a zombie, without reaping it."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return False


def _held() -> set[int]:
    """The pids a tool can still wait for: of Popen and multiprocessing objects
    not done yet. A Popen the tool dropped sits in subprocess._active, which only
    the next Popen would reap: it is no one's to wait for."""
    dropped = {id(p) for p in getattr(subprocess, "_active", None) or ()}
    processes = sys.modules.get("multiprocessing.process")
    held = set()
    for obj in gc.get_objects():
        if isinstance(obj, subprocess.Popen):
            if obj.returncode is None and id(obj) not in dropped:
                held.add(obj.pid)
        elif processes is not None and isinstance(obj, processes.BaseProcess):
            popen = getattr(obj, "_popen", None)
            if popen is not None and getattr(popen, "returncode", 0) is None:
                held.add(popen.pid)
    return held


# One reaper for the process.
REAPER = Reaper()
