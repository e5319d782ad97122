// tools/call past the SDK's Client (call-wire.ts): what it sends and how each end of a call is worded, against a
// recorded send for the wire alone, and through HostClient against a fake host (a few lines of Node) that splits
// its lines across writes, joins two in one write, dies mid-call, and reports what it was sent.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, SdkErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallWire } from "./call-wire";
import { HostClient, HostError } from "./client";

function recorded(waitMs = 60_000) {
  const sent: JSONRPCMessage[] = [];
  const wire = new CallWire(async (message) => void sent.push(message), waitMs);
  const idOf = (index: number) => (sent[index] as { id: string }).id;
  return { wire, sent, idOf };
}

describe("the call wire on its own", () => {
  it("sends tools/call with an id of its own and resolves with the checked result", async () => {
    const { wire, sent, idOf } = recorded();
    const call = wire.call({ name: "a__b", arguments: {} }, { watched: true });
    expect(sent[0]).toMatchObject({ jsonrpc: "2.0", method: "tools/call", params: { name: "a__b", arguments: {} } });
    expect(typeof idOf(0)).toBe("string");
    expect(wire.take({ jsonrpc: "2.0", id: idOf(0), result: { content: [{ type: "text", text: "ok" }] } })).toBe(true);
    await expect(call).resolves.toMatchObject({ content: [{ type: "text", text: "ok" }] });
  });

  it("leaves alone what does not answer one of its calls: the Client's numbered answers, requests, other values", () => {
    const { wire, idOf } = recorded();
    void wire.call({ name: "a__b", arguments: {} }, { watched: true });
    expect(wire.take({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
    expect(wire.take({ jsonrpc: "2.0", id: "host-1", method: "quiver/ask", params: {} })).toBe(false);
    expect(wire.take({ jsonrpc: "2.0", id: idOf(0), method: "quiver/ask", params: {} })).toBe(false);
    expect(wire.take(null)).toBe(false);
    expect(wire.take(7)).toBe(false);
  });

  it("answers an error with the host's own sentence, and a wrong shape as the SDK's InvalidResult", async () => {
    const { wire, idOf } = recorded();
    const refused = wire.call({ name: "a__b", arguments: {} }, { watched: true });
    wire.take({ jsonrpc: "2.0", id: idOf(0), error: { code: -32602, message: "tools/call needs the tool's `name`" } });
    await expect(refused).rejects.toThrow(/^tools\/call needs the tool's `name`$/);
    const odd = wire.call({ name: "a__b", arguments: {} }, { watched: true });
    wire.take({ jsonrpc: "2.0", id: idOf(1), result: { content: "not a list" } });
    await expect(odd).rejects.toMatchObject({ code: SdkErrorCode.InvalidResult, message: expect.stringMatching(/^Invalid result for tools\/call: content: /) });
  });

  it("R-call-stop: an aborted call sends notifications/cancelled for its id and fails with the abort's reason", async () => {
    const { wire, sent, idOf } = recorded();
    const stop = new AbortController();
    const call = wire.call({ name: "a__b", arguments: {} }, { watched: true, signal: stop.signal });
    const reason = new Error("the person stopped the run");
    stop.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: idOf(0), reason: String(reason) } });
    expect(wire.take({ jsonrpc: "2.0", id: idOf(0), result: { content: [] } })).toBe(false); // a late answer is nobody's
  });

  it("sends nothing for a call whose signal was aborted before it started", async () => {
    const { wire, sent } = recorded();
    const reason = new Error("stopped already");
    await expect(wire.call({ name: "a__b", arguments: {} }, { watched: true, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(sent).toEqual([]);
  });

  it("ends a watched call that outlives the wait as the SDK's RequestTimeout, cancelled, and never an unwatched one", async () => {
    const { wire, sent, idOf } = recorded(50);
    const unwatched = wire.call({ name: "ask__person", arguments: {} }, { watched: false });
    const watched = wire.call({ name: "a__b", arguments: {} }, { watched: true });
    await expect(watched).rejects.toSatisfy((error) => error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout);
    expect(sent).toContainEqual(expect.objectContaining({ method: "notifications/cancelled", params: expect.objectContaining({ requestId: idOf(1) }) }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(wire.take({ jsonrpc: "2.0", id: idOf(0), result: { content: [{ type: "text", text: "yes" }] } })).toBe(true);
    await expect(unwatched).resolves.toMatchObject({ content: [{ type: "text", text: "yes" }] });
  });

  it("fails every call still waiting when the host is gone", async () => {
    const { wire } = recorded();
    const calls = [1, 2].map(() => wire.call({ name: "a__b", arguments: {} }, { watched: true }));
    wire.closed();
    for (const call of calls) await expect(call).rejects.toMatchObject({ code: SdkErrorCode.ConnectionClosed });
  });
});

const SPLIT_HOST = `import readline from "node:readline";
const line = (message) => JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n";
const write = (text) => new Promise((resolve) => process.stdout.write(text, resolve));
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
readline.createInterface({ input: process.stdin }).on("line", async (text) => {
  const { id, method, params } = JSON.parse(text);
  if (method === "initialize") {
    await write(line({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "split", version: "0" } } }));
  } else if (method === "notifications/cancelled") {
    await write(line({ method: "notifications/quiver/saw_cancel", params: { requestId: params.requestId } }));
  } else if (method === "tools/call" && params.name === "split__long") {
    // One answer in three writes, the second cutting a character of two bytes in half.
    const answer = Buffer.from(line({ id, result: { content: [{ type: "text", text: "é".repeat(70000) }] } }));
    const cut = 100001;
    await write(answer.subarray(0, 50)); await pause();
    await write(answer.subarray(50, cut)); await pause();
    await write(answer.subarray(cut));
  } else if (method === "tools/call" && params.name === "split__progress") {
    // A progress line and the answer in one write: the progress is seen before the call ends.
    const token = params._meta.progressToken;
    await write(line({ method: "notifications/progress", params: { progressToken: token, progress: 1, message: "half" } }) + "not json\\n" + line({ id, result: { content: [{ type: "text", text: "done" }] } }));
  } else if (method === "tools/call" && params.name === "split__die") {
    process.exit(5);
  }
});
`;

describe("calls through HostClient to a host that writes its lines oddly", () => {
  let dir: string;
  let host: HostClient;
  const notices: { method: string; params: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-split-host-"));
    fs.writeFileSync(path.join(dir, "split-host.mjs"), SPLIT_HOST);
    host = await HostClient.connect(
      { command: process.execPath, args: [path.join(dir, "split-host.mjs")], cwd: dir, env: {}, treeDir: dir, workDir: dir, sandboxed: false, reason: "a fake host for the test" },
      { onHostNotice: (method, params) => notices.push({ method, params }) },
    );
  });

  afterAll(async () => {
    await host.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("joins an answer written in pieces, a character cut between them", async () => {
    const result = await host.call("split__long", {});
    expect(result.content).toEqual([{ type: "text", text: "é".repeat(70000) }]);
  });

  it("takes a progress line, skips a stray line and ends the call, all from one write, in that order", async () => {
    const seen: string[] = [];
    const result = await host.call("split__progress", {}, { onProgress: (progress) => seen.push(progress.message ?? "") });
    expect(seen).toEqual(["half"]);
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "done" }] });
  });

  it("R-call-stop: tells the host which call was cancelled", async () => {
    const stop = new AbortController();
    const call = host.call("split__never", {}, { signal: stop.signal });
    stop.abort(new Error("stopped"));
    await expect(call).rejects.toThrow("stopped");
    await expect.poll(() => notices.find((notice) => notice.method === "notifications/quiver/saw_cancel")).toBeTruthy();
    expect(String(notices[0]?.params.requestId)).toMatch(/^call-/);
  });

  it("says the host stopped when it dies during a call", async () => {
    await expect(host.call("split__die", {})).rejects.toMatchObject({ code: "stopped", message: "The tool host stopped while running split__die" });
    await expect(host.call("split__long", {})).rejects.toBeInstanceOf(HostError);
  });
});
