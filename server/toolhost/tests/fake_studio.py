"""The studio's side of a host that reaches back (ctx.io, ctx.system, ctx.ask):
a host over a tree of the test's files, a tools/call carrying the call's token,
and answers to the requests the host sends the studio while the call waits."""

from __future__ import annotations

from tests.support import HostProcess, TreeCase, write_file


class FakeStudioCase(TreeCase):
    """Subclasses name their tool files in FILES and the token their calls carry
    in TOKEN (R-tool-io-clock, R-call-wait-not-counted)."""

    FILES: dict[str, str] = {}
    TOKEN = "call-1"

    def start(self) -> HostProcess:
        root = self.folder() / "tools"
        for name, text in self.FILES.items():
            write_file(root, name, text)
        host = HostProcess(root)
        self.addCleanup(host.close)
        host.initialize()
        return host

    def call(self, host: HostProcess, name: str, arguments: dict, token: str | None = "") -> int:
        """Sends a tools/call; the class's TOKEN unless a token is named, none for None."""
        token = self.TOKEN if token == "" else token
        meta = {"quiver/call": token} if token else {}
        return host.request("tools/call", {"name": name, "arguments": arguments, "_meta": meta})

    def studio_request(self, host: HostProcess) -> dict:
        return host.wait_for(lambda m: "method" in m and "id" in m)[0]

    def answer(self, host: HostProcess, request: dict, result: dict | None = None,
               error: dict | None = None) -> None:
        reply = {"jsonrpc": "2.0", "id": request["id"]}
        reply.update({"error": error} if error else {"result": result})
        host.send(reply)

    def text(self, message: dict) -> str:
        return "".join(part["text"] for part in message["result"]["content"])
