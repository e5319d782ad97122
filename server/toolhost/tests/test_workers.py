"""The pool of long-lived threads (workers.py): work starts on a thread already
waiting, a job that never comes back does not hold up the next, and each job
starts with the context a new thread would have."""

import contextlib
import contextvars
import io
import threading
import time
import unittest

from quiverhost.workers import Workers

SEEN = contextvars.ContextVar("seen", default="unset")


class WorkersTests(unittest.TestCase):
    def pool(self, spare: int = 4) -> Workers:
        return Workers(name="quiver-test-worker", spare=spare)

    def run_and_wait(self, workers: Workers, job) -> None:
        done = threading.Event()

        def run():
            try:
                job()
            finally:
                done.set()
        workers.submit(run)
        self.assertTrue(done.wait(5))
        # The thread counts itself idle just after the job returns; wait for that too.
        deadline = time.monotonic() + 5
        while workers.idle == 0 and time.monotonic() < deadline:
            time.sleep(0.001)

    def test_a_job_starts_on_a_thread_already_waiting(self):
        workers = self.pool()
        for _ in range(20):
            self.run_and_wait(workers, lambda: None)
        self.assertEqual(workers.started, 1)

    def test_a_stuck_job_does_not_hold_up_the_next(self):
        workers = self.pool()
        release = threading.Event()
        self.addCleanup(release.set)
        workers.submit(release.wait)
        self.run_and_wait(workers, lambda: None)
        self.assertEqual(workers.started, 2)  # the stuck thread was replaced, not waited for

    def test_threads_beyond_the_spare_ones_end(self):
        workers = Workers(name="quiver-spare-test", spare=1)
        go = threading.Event()
        for _ in range(3):
            workers.submit(lambda: go.wait(5))
        self.assertEqual(workers.started, 3)
        go.set()
        deadline = time.monotonic() + 5
        while self.alive("quiver-spare-test") > 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertEqual((self.alive("quiver-spare-test"), workers.idle), (1, 1))

    def alive(self, prefix: str) -> int:
        return sum(1 for thread in threading.enumerate() if thread.name.startswith(prefix))

    def test_a_context_variable_one_job_sets_is_not_seen_by_the_next(self):
        workers = self.pool()
        seen = []
        self.run_and_wait(workers, lambda: SEEN.set("first"))
        self.run_and_wait(workers, lambda: seen.append(SEEN.get()))
        self.assertEqual((seen, workers.started), (["unset"], 1))

    def test_a_job_that_raises_leaves_its_thread_serving(self):
        workers = self.pool()
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.run_and_wait(workers, lambda: 1 / 0)
        self.run_and_wait(workers, lambda: None)
        self.assertIn("ZeroDivisionError", err.getvalue())
        self.assertEqual(workers.started, 1)


if __name__ == "__main__":
    unittest.main()
