// A tree tool that calls a built-in through ctx.system, as a builder meets it in the playground: the built-in's call
// is a card of its own inside the tool's card, asks for approval there when its permission says so, and the tool's
// result (what the model reads) carries what the built-in answered.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { call, startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

const FILE = "reach_probe.py";
const SOURCE = `"""Keeps facts through the studio's memory."""

from quiver import Context


def keep(key: str, value: str, ctx: Context) -> str:
    """Keep one fact through the studio's memory.

    Args:
        key: The fact's key.
        value: Its value.
    """
    ctx.system.memory.memory_set(key=key, value=value)
    return "kept: " + ctx.system.memory.memory_get(key=key)
`;

let model: LoopbackModel;
const file = () => path.join(process.env.QUIVER_E2E_TOOLS!, FILE);

test.beforeAll(async () => {
  model = await startLoopbackModel();
  // A file of its own in the test's copy of the tree, removed at the end, so no other suite sees it.
  fs.writeFileSync(file(), SOURCE);
});

test.afterAll(async () => {
  await model.close();
  fs.rmSync(file(), { force: true });
});

test("a tool's ctx.system call shows inside its card and is approved there", async ({ page }) => {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: {
      declaration: {
        name: "Fact keeper",
        instructions: "Keep the facts you are told.",
        model: { provider: "openai-compatible", model: "scripted", base_url: model.url },
        tools: [{ entry: "tools/reach_probe.py" }, { entry: "system:memory#memory_set,memory_get", permissions: { memory_set: "ASK" } }],
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
  model.reply(call("reach_probe__keep", { key: "city", value: "Lyon" }), text("Kept."));

  await page.goto(`/agents/${agentId}/run`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Remember that I live in Lyon");
  await box.press("Enter");

  const outer = page.getByRole("article", { name: "Tool call: Keep" });
  const nested = outer.getByRole("region", { name: "Calls this tool made" });
  const remember = nested.getByRole("article", { name: "Tool call: Remember a fact" });
  await expect(remember.getByText("Waiting for your approval")).toBeVisible();
  await remember.getByRole("button", { name: "Approve", exact: true }).click();

  await expect(outer.getByLabel("Result").last()).toHaveText("kept: Lyon");
  await expect(nested.getByRole("article")).toHaveCount(2);
  await expect(remember.getByText("Result, as the tool got it")).toBeVisible();
  await expect(page.getByLabel("Agent's reply")).toHaveText("Kept.");
  // The model made one call and read one result.
  expect(model.requests[1]!.body.messages.filter((m) => m.role === "tool")).toHaveLength(1);
});
