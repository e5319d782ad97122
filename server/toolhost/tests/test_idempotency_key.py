"""ctx.idempotency_key: the key the studio sends in a call's `_meta` for one
step of a run, the same again when the call is replayed (R-journal-idempotent)."""

from tests.support import TreeCase

KEYED = '''
from quiver import Context


def key(ctx: Context) -> str:
    return ctx.idempotency_key or "none"
'''


class IdempotencyKeyTests(TreeCase):
    def setUp(self):
        self.host = self.calls({"keyed.py": KEYED})

    def test_R_journal_idempotent_the_key_the_studio_sent_is_ctx_idempotency_key(self):
        meta = {"quiver/idempotency-key": "k-1"}
        self.assertEqual(self.text(self.host.call("keyed__key", {}, meta)), "k-1")
        self.assertEqual(self.text(self.host.call("keyed__key", {}, meta)), "k-1")

    def test_R_journal_idempotent_a_call_without_a_key_reads_none(self):
        self.assertEqual(self.text(self.host.call("keyed__key", {}, {})), "none")
