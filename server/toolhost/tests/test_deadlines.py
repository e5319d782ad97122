"""The one thread that watches every call's bound (deadlines.py): it answers
for a call whose bound passed, never for one that finished in time, and a
sooner bound is not kept waiting behind a later one."""

import contextlib
import io
import threading
import time
import unittest

from quiverhost.deadlines import Deadlines, PausableBound


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

    def test_calls_done_under_the_usual_bound_wake_no_thread(self):
        # Each watch no sooner than what the watcher sleeps towards is not told to it:
        # a no-op call would otherwise pay for waking a thread.
        deadlines = Deadlines()
        deadlines.done(deadlines.watch(60, lambda: None))
        time.sleep(0.05)  # the watcher is asleep until that bound
        told = []
        notify = deadlines._wake.notify
        deadlines._wake.notify = lambda *args: (told.append(args), notify(*args))
        for _ in range(500):
            deadlines.done(deadlines.watch(60, lambda: None))
        self.assertEqual(told, [])
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


class PausableBoundTests(unittest.TestCase):
    """R-call-wait-not-counted: time a call spends waiting on the person never
    counts against its bound."""

    def test_a_paused_bound_does_not_expire_while_the_call_waits(self):
        deadlines, fired = Deadlines(), threading.Event()
        bound = PausableBound(0.1, fired.set, deadlines)
        bound.pause()
        self.assertFalse(fired.wait(0.3))  # well past 0.1 s, but waiting
        bound.resume()
        self.assertTrue(fired.wait(5))  # the rest of its 0.1 s, counted from the resume
        self.assertFalse(bound.done())

    def test_time_waited_is_owed_back_to_a_bound_already_watched(self):
        deadlines, fired = Deadlines(), threading.Event()
        bound = PausableBound(0.2, fired.set, deadlines)
        time.sleep(0.05)
        bound.pause()
        time.sleep(0.2)
        bound.resume()  # 0.15 s left, although 0.25 s have passed
        self.assertFalse(fired.wait(0.08))
        self.assertTrue(fired.wait(5))

    def test_a_call_done_in_time_is_never_answered_for(self):
        deadlines, fired = Deadlines(), threading.Event()
        bound = PausableBound(0.05, fired.set, deadlines)
        self.assertTrue(bound.done())
        self.assertFalse(fired.wait(0.2))
