// How HostClient words what goes wrong between the studio and a host that answers oddly: a fake host (a few lines
// of Node speaking newline JSON-RPC) answers Quiver's methods with a wrong shape, an error of its own, or by dying.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostClient, HostError } from "./client";

const ODD_HOST = `import readline from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === "initialize") {
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "odd", version: "0" } } });
  } else if (method === "quiver/catalog") {
    send({ id, result: { files: "not a list" } });
  } else if (method === "tools/call") {
    send({ id, result: { content: "not a list" } });
  } else if (method === "quiver/check_secret") {
    send({ id, error: { code: -32602, message: "tools/odd.py has no setting named token" } });
  } else if (method === "quiver/preview") {
    process.exit(3);
  }
});
`;

let dir: string;
let host: HostClient;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-odd-host-"));
  fs.writeFileSync(path.join(dir, "odd-host.mjs"), ODD_HOST);
  host = await HostClient.connect({
    command: process.execPath,
    args: [path.join(dir, "odd-host.mjs")],
    cwd: dir,
    env: {},
    treeDir: dir,
    workDir: dir,
    sandboxed: false,
    reason: "a fake host for the test",
  });
});

afterAll(async () => {
  await host.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("what the client says when a host answers oddly", () => {
  it("says the host and the studio are out of step when an answer of Quiver's own methods has the wrong shape", async () => {
    await expect(host.catalog()).rejects.toThrow(/^The tool host's answer to quiver\/catalog has an unexpected shape \(.+\); the host and the studio are out of step$/);
    await expect(host.catalog()).rejects.not.toBeInstanceOf(HostError);
  });

  it("answers a call whose result has the wrong shape as a failed call, not a dead host", async () => {
    const result = await host.call("odd__tool", {});
    expect(result).toMatchObject({ isError: true, outcome: "failed" });
    expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/^The tool host's answer to odd__tool has an unexpected shape/) }]);
  });

  it("keeps the host's own sentence when it answers with an error", async () => {
    await expect(host.checkSecret("tools/odd.py", "token", "x")).rejects.toThrow(/^tools\/odd\.py has no setting named token$/);
  });

  it("says the host stopped when it dies before answering", async () => {
    const stopped = host.preview("tools/odd.py", "");
    await expect(stopped).rejects.toBeInstanceOf(HostError);
    await expect(stopped).rejects.toMatchObject({ code: "stopped", message: "The tool host stopped while running quiver/preview" });
  });
});
