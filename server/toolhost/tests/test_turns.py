"""Threads taking turns at reading (turns.py): the thread whose turn it is
steps on until it passes the turn; a passed turn goes to a thread already
waiting when there is one; a thread that never comes back holds nothing up."""

import contextlib
import io
import threading
import time
import unittest

from quiverhost.turns import Turns


class Script:
    """Steps that each take the next item: "pass" passes the turn and then waits
    for `release`; "end" ends; anything else is just recorded."""

    def __init__(self, turns: Turns, items: list[str]) -> None:
        self.turns, self.items = turns, list(items)
        self.lock = threading.Lock()
        self.seen: list[tuple[str, str]] = []
        self.release = threading.Event()

    def step(self) -> bool:
        with self.lock:
            item = self.items.pop(0) if self.items else "end"
            self.seen.append((item, threading.current_thread().name))
        if item == "end":
            return False
        if item.startswith("pass"):
            self.turns.pass_on()
            self.release.wait(10)
        return True


class TurnsTests(unittest.TestCase):
    def run_script(self, items: list[str], spare: int = 4) -> tuple[Turns, Script]:
        turns = Turns(name="quiver-turns-test", spare=spare)
        script = Script(turns, items)
        self.addCleanup(script.release.set)
        runner = threading.Thread(target=turns.run, args=(script.step,), daemon=True)
        runner.start()
        runner.join(5)
        self.assertFalse(runner.is_alive(), "the steps did not end")
        return turns, script

    def test_steps_go_on_on_one_thread_until_one_says_stop(self):
        turns, script = self.run_script(["a", "b", "c"])
        self.assertEqual([item for item, _ in script.seen], ["a", "b", "c", "end"])
        self.assertEqual(len({thread for _, thread in script.seen}), 1)
        self.assertEqual(turns.started, 1)

    def test_a_thread_that_passed_the_turn_does_not_hold_up_the_next_steps(self):
        # Both "pass" steps stay stuck until the end of the test: reading goes on without them.
        turns, script = self.run_script(["pass 1", "a", "pass 2", "b"])
        self.assertEqual([item for item, _ in script.seen], ["pass 1", "a", "pass 2", "b", "end"])
        self.assertEqual(turns.started, 3)

    def test_a_passed_turn_goes_to_a_thread_already_waiting(self):
        turns = Turns(name="quiver-turns-test")
        steps, stop = [], threading.Event()

        def step() -> bool:
            steps.append(threading.current_thread().name)
            if stop.is_set():
                return False
            if len(steps) % 2:  # every other step answers a "slow" request, done at once
                turns.pass_on()
                return True
            # Until the thread that passed is back waiting: on a loaded machine a fixed pause may end before it is,
            # and a pass with nobody waiting rightly starts a thread.
            back = time.monotonic() + 2
            while turns.waiting() == 0 and time.monotonic() < back:
                time.sleep(0.0005)
            if len(steps) > 40:
                stop.set()
            return True
        runner = threading.Thread(target=turns.run, args=(step,), daemon=True)
        runner.start()
        runner.join(5)
        self.assertFalse(runner.is_alive())
        self.assertLessEqual(turns.started, 3)  # two take turns; never a thread per pass

    def run_kept(self, step, turns: Turns) -> None:
        runner = threading.Thread(target=turns.run, args=(step,), daemon=True)
        runner.start()
        runner.join(10)
        self.assertFalse(runner.is_alive(), "the steps did not end")

    def test_kept_steps_that_end_quickly_keep_the_turn_and_wake_no_thread(self):
        """R-host-reading-turn: a quick call wakes no other thread."""
        turns, threads = Turns(name="quiver-turns-test"), []

        def step() -> bool:
            threads.append(threading.current_thread().name)
            turns.keep()
            turns.kept()
            return len(threads) < 200
        self.run_kept(step, turns)
        self.assertEqual(len(set(threads)), 1)
        self.assertEqual(turns.started, 1)

    def test_a_kept_step_that_takes_long_has_its_turn_passed_soon(self):
        """R-host-reading-turn: a call expected quick holds up reading briefly."""
        turns, release = Turns(name="quiver-turns-test", soon=0.001, net=0.01), threading.Event()
        self.addCleanup(release.set)
        seen: list[tuple[str, float]] = []

        def step() -> bool:
            seen.append((threading.current_thread().name, time.monotonic()))
            if len(seen) == 1:
                turns.keep()  # expected quick, but stuck until the test ends
                release.wait(10)
                turns.kept()
                return True
            return False
        runner = threading.Thread(target=turns.run, args=(step,), daemon=True)
        runner.start()
        runner.join(5)
        self.assertFalse(runner.is_alive(), "reading waited for the stuck step")
        (first, began), (second, went_on) = seen
        self.assertNotEqual(first, second)
        self.assertLess(went_on - began, 1.0)

    def test_a_kept_step_about_to_wait_passes_its_turn_at_once(self):
        """R-host-reading-turn: one that asks the studio passes reading on at once."""
        # A net that never looks: only pass_kept can let reading go on.
        turns, release = Turns(name="quiver-turns-test", net=60), threading.Event()
        self.addCleanup(release.set)
        seen: list[str] = []

        def step() -> bool:
            seen.append(threading.current_thread().name)
            if len(seen) == 1:
                turns.keep()
                turns.pass_kept()  # as a request to the client does before it waits
                release.wait(10)
                turns.kept()
                return True
            return False
        self.run_kept(step, turns)
        self.assertEqual(len(seen), 2)
        self.assertNotEqual(seen[0], seen[1])

    def test_a_step_that_raises_ends_the_turns(self):
        turns = Turns(name="quiver-turns-test")

        def broken() -> bool:
            raise ValueError("a bug in a step")
        with contextlib.redirect_stderr(io.StringIO()) as err:
            runner = threading.Thread(target=turns.run, args=(broken,), daemon=True)
            runner.start()
            runner.join(5)
        self.assertFalse(runner.is_alive())
        self.assertIn("a bug in a step", err.getvalue())


if __name__ == "__main__":
    unittest.main()
