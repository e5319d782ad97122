// The one call pipeline, driven through a kind of source the studio does not have: a CallTarget written here, as
// an MCP server's adapter will be. Everything else — settings and their secrets, the bound, masking, the answer —
// is the real pipeline's, so a new kind of source needs nothing more than its adapter.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { DomainError } from "@/server/errors";
import { resultText, type CallResult } from "@/server/host/protocol";
import { deriveKey } from "@/server/secrets/key";
import { createSecret } from "@/server/secrets/store";
import { callOperation, SettingsUnavailable, type CallRequest } from "./call";
import { callSecrets } from "./secrets";
import type { CallTarget, SourceCall } from "./target";

const key = deriveKey(randomBytes(32), "secrets");
const TOKEN = "remote-token-0123456789";
let dir: string;
let database: Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-call-"));
  database = await openDatabase({ dataDir: dir });
  await createSecret(database.db, "admin-1", { name: "REMOTE_TOKEN", value: TOKEN }, key);
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ok = (text: string): CallResult => ({ content: [{ type: "text", text }], isError: false, outcome: "ok", durationMs: null, truncated: null });

/** A source kind of its own: what it does with each call is the test's. */
function remote(work: (args: Record<string, unknown>, call: SourceCall) => Promise<CallResult>, graceMs = 0): CallTarget & { calls: SourceCall[] } {
  const calls: SourceCall[] = [];
  return {
    name: "remote__echo",
    graceMs,
    calls,
    invoke: (args, call) => {
      calls.push(call);
      return work(args, call);
    },
  };
}

function request(target: CallTarget, extra: Partial<CallRequest> = {}): CallRequest {
  return { target, args: {}, settings: {}, secrets: callSecrets(database.db, { actor: "dev-1", via: "try-it" }, key), bound: null, ...extra };
}

describe("a new kind of source through the one pipeline", () => {
  it("gets its settings with ${NAME} resolved, and every value it sends back masked in progress and result", async () => {
    const target = remote(async (args, call) => {
      call.progress(`connecting with ${String(call.settings.header)}`);
      return { ...ok(`echo ${String(args.word)} as ${String(call.settings.header)}`), truncated: `kept whole with ${TOKEN}` };
    });
    const progress: string[] = [];
    const result = await callOperation(request(target, { args: { word: "hi" }, settings: { header: "Bearer ${REMOTE_TOKEN}" }, onProgress: (m) => progress.push(m) }));
    expect(target.calls[0]!.settings).toEqual({ header: `Bearer ${TOKEN}` });
    expect(progress).toEqual(["connecting with Bearer ***"]);
    expect(resultText(result)).toBe("echo hi as Bearer ***");
    expect(result.truncated).toBe("kept whole with ***");
  });

  it("is never called when a setting names an unknown secret: the store's refusal reaches the caller", async () => {
    const target = remote(async () => ok("ran"));
    const answer = callOperation(request(target, { settings: { token: "${NO_SUCH_SECRET}" } }));
    await expect(answer).rejects.toBeInstanceOf(SettingsUnavailable);
    const err = (await answer.catch((e: unknown) => e)) as SettingsUnavailable;
    expect(err.cause).toBeInstanceOf(DomainError);
    expect(err.message).toBe("remote__echo could not be given its settings: There is no secret named NO_SUCH_SECRET; an admin can create it in Settings → Secrets.");
    expect(target.calls).toHaveLength(0);
  });

  it("answers a throw from the source as a failure in `<Type>: <message>` form, masked", async () => {
    const target = remote(async (_, call) => {
      throw new TypeError(`the server refused ${String(call.settings.token)}`);
    });
    const result = await callOperation(request(target, { settings: { token: "${REMOTE_TOKEN}" } }));
    expect(result).toMatchObject({ outcome: "failed", isError: true });
    expect(resultText(result)).toBe("TypeError: the server refused ***");
  });

  it("bounds the call: past its seconds (and the source's grace) it answers R-call-timeout-answer's sentence and the source is aborted", async () => {
    const target = remote((_, call) => new Promise((_, reject) => call.signal.addEventListener("abort", () => reject(call.signal.reason))), 50);
    const result = await callOperation(request(target, { bound: 0.05 }));
    expect(result.outcome).toBe("timeout");
    expect(resultText(result)).toBe("TimeoutError: remote__echo did not finish within 0.05 s; it may have partly run, so check its effects before calling it again.");
    expect(target.calls[0]!.signal.aborted).toBe(true);
  });

  it("never counts a wait on the studio against the bound (R-call-wait-not-counted)", async () => {
    const target = remote(async (_, call) => {
      await call.waiting(() => new Promise((r) => setTimeout(r, 150)));
      return ok("answered after the wait");
    });
    const result = await callOperation(request(target, { bound: 0.1 }));
    expect(resultText(result)).toBe("answered after the wait");
  });

  it("passes the caller's stop on to the source, and throws the caller's reason rather than answering", async () => {
    const controller = new AbortController();
    const target = remote((_, call) => new Promise((_, reject) => call.signal.addEventListener("abort", () => reject(new Error("cut")))));
    const answer = callOperation(request(target, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("the person stopped it")), 10);
    await expect(answer).rejects.toThrow("the person stopped it");
    expect(target.calls[0]!.signal.aborted).toBe(true);
  });
});
