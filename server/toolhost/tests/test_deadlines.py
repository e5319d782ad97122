"""The one thread that watches every call's bound (deadlines.py): it answers
for a call whose bound passed, never for one that finished in time, and a
sooner bound is not kept waiting behind a later one."""

import contextlib
import io
import threading
import time
import unittest

from quiverhost.deadlines import Deadlines


class DeadlinesTests(unittest.TestCase):
    def test_expire_runs_when_the_bound_passes(self):
        deadlines, fired = Deadlines(), threading.Event()
        started = time.monotonic()
        watch = deadlines.watch(0.05, fired.set)
        self.assertTrue(fired.wait(5))
        self.assertGreaterEqual(time.monotonic() - started, 0.05)
        self.assertFalse(deadlines.done(watch))  # the call learns it was answered for

    def test_a_call_done_in_time_is_never_answered_for(self):
        deadlines, fired = Deadlines(), threading.Event()
        watch = deadlines.watch(0.05, fired.set)
        self.assertTrue(deadlines.done(watch))
        self.assertFalse(fired.wait(0.2))

    def test_a_sooner_bound_is_not_kept_waiting_behind_a_later_one(self):
        deadlines, fired = Deadlines(), threading.Event()
        deadlines.watch(60, lambda: None)
        time.sleep(0.05)  # the watcher is asleep until the 60 s bound
        started = time.monotonic()
        deadlines.watch(0.05, fired.set)
        self.assertTrue(fired.wait(5))
        self.assertLess(time.monotonic() - started, 1)

    def test_finished_calls_do_not_pile_up_under_a_long_bound(self):
        deadlines = Deadlines()
        for _ in range(1000):
            deadlines.done(deadlines.watch(120, lambda: None))
        self.assertLess(len(deadlines._heap), 200)

    def test_an_expire_that_raises_does_not_stop_the_watching(self):
        deadlines, fired = Deadlines(), threading.Event()

        def broken():
            raise RuntimeError("a bug in an expire")
        with contextlib.redirect_stderr(io.StringIO()):
            deadlines.watch(0.01, broken)
            deadlines.watch(0.05, fired.set)
            self.assertTrue(fired.wait(5))


if __name__ == "__main__":
    unittest.main()
