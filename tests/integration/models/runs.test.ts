// Runs of agents on a connection, against the loopback model: the connection is read at each run's start (so a
// moved address or a rotated key reaches the next run), and the agent's options reach the provider call.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelConnections } from "@/db/schema";
import { createAgent } from "@/server/agents/store";
import { createConnection, updateConnection } from "@/server/models/store";
import { createSecret, rotateSecret } from "@/server/secrets/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { startLoopbackModel, text, type LoopbackModel } from "@/tests/support/loopback-model";
import { ANN, dataOf, settled, studio, type Studio } from "../runtime/setup";

let s: Studio;
let other: LoopbackModel;
const place = () => ({ tree: s.tree, workspace: workspaceDir(s.dataDir) });

beforeAll(async () => {
  s = await studio("connection-runs", {});
  other = await startLoopbackModel();
  await createSecret(s.database.db, ANN.id, { name: "RUN_KEY", value: "sk-run-first-111" });
});
afterAll(async () => {
  await other.close();
  await s.close();
});

async function runOn(agentId: string, message = "Hello.") {
  const { runId } = await s.runtime.start({ agentId, message, user: ANN });
  return { runId, run: await settled(s, runId), events: await s.events(runId) };
}

describe("R-conn-resolve: a run reads its agent's connection when it starts", () => {
  it("R-conn-resolve: an agent on a connection answers, with the connection's model and the agent's options sent", async () => {
    await createConnection(s.database.db, ANN.id, { name: "run-box", provider: "openai-compatible", baseUrl: s.model.url, apiKey: "${RUN_KEY}", defaultModel: "loopback-large" });
    const agent = await createAgent(s.database.db, ANN.id, { name: "on run-box", model: { connection: "run-box", temperature: 0.3, max_tokens: 500, reasoning_effort: "low" } }, place());
    s.model.expectKey = "sk-run-first-111";
    s.model.reply(text("Hello from the connection."));
    const { run, events } = await runOn(agent.id);
    expect(run.status).toBe("done");
    expect(dataOf(events, "message").at(-1)).toMatchObject({ role: "assistant", text: "Hello from the connection." });
    expect(dataOf(events, "run_started")[0]!.model).toEqual({ provider: "openai-compatible", model: "loopback-large", connection: "run-box" });
    expect(s.model.requests.at(-1)!.body).toMatchObject({ model: "loopback-large", temperature: 0.3, max_tokens: 500, reasoning_effort: "low" });
  });

  it("R-conn-options: options left out are not sent, so the provider's defaults apply", async () => {
    const agent = await createAgent(s.database.db, ANN.id, { name: "plain on run-box", model: { connection: "run-box", model: "loopback-small" } }, place());
    s.model.reply(text("Plain."));
    expect((await runOn(agent.id)).run.status).toBe("done");
    const body = s.model.requests.at(-1)!.body;
    expect(body.model).toBe("loopback-small");
    for (const option of ["temperature", "max_tokens", "reasoning_effort"]) expect(body).not.toHaveProperty(option);
  });

  it("R-conn-resolve: a moved address and a rotated key reach the agent's next run without saving it again", async () => {
    const agent = await createAgent(s.database.db, ANN.id, { name: "follows run-box", model: { connection: "run-box" } }, place());
    s.model.reply(text("Still here."));
    expect((await runOn(agent.id)).run.status).toBe("done");

    await updateConnection(s.database.db, ANN.id, { name: "run-box", baseUrl: other.url });
    await rotateSecret(s.database.db, ANN.id, { name: "RUN_KEY", value: "sk-run-second-222" });
    other.expectKey = "sk-run-second-222";
    const before = s.model.requests.length;
    other.reply(text("Answered from the new address."));
    const { run, events } = await runOn(agent.id);
    expect(run.status).toBe("done");
    expect(dataOf(events, "message").at(-1)).toMatchObject({ text: "Answered from the new address." });
    expect(other.requests.at(-1)!.headers.authorization).toBe("Bearer sk-run-second-222");
    expect(s.model.requests.length).toBe(before);
  });

  it("R-conn-resolve: a refused key on a connection says to check the secret in Settings → Models, never the value", async () => {
    const agent = await createAgent(s.database.db, ANN.id, { name: "refused on run-box", model: { connection: "run-box" } }, place());
    other.expectKey = "sk-something-else";
    const { run, events } = await runOn(agent.id);
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/refused the API key \(HTTP 401.*\); check the secret \$\{RUN_KEY\} in the connection run-box in Settings → Models\.$/);
    expect(JSON.stringify(events)).not.toContain("sk-run-second-222");
  });

  it("R-conn-resolve: a connection gone by the time a run starts stops it there, saying so", async () => {
    const db = s.database.db;
    await createConnection(db, ANN.id, { name: "short-lived", provider: "openai-compatible", baseUrl: s.model.url, defaultModel: "loopback-small" });
    const agent = await createAgent(db, ANN.id, { name: "on short-lived", model: { connection: "short-lived" } }, place());
    // As if removed between the check and the run; the store itself refuses while an agent uses it.
    await db.delete(modelConnections).where(eq(modelConnections.name, "short-lived"));
    const { run } = await runOn(agent.id);
    expect(run.status).toBe("failed");
    expect(run.error).toBe("The run could not start: There is no model connection named short-lived any more; pick another in the agent's Model section, or ask an admin to add it in Settings → Models.");
  });
});
