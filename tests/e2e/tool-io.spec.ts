// A tool that asks before it writes (ctx.io.request_write_approval), as a builder meets it in the playground: the
// request is a card inside the tool's card with the path and what will be written; "Allow always for this path"
// answers the tool, and the next write of that path in the run goes through without a card (R-tool-io-cards,
// R-tool-io-write-always).
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { call, startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

const FILE = "io_probe.py";
const SOURCE = `"""Writes reports once the person allows it."""

from quiver import Context, tool


@tool(title="Publish a report", risk="write")
def publish(path: str, ctx: Context) -> str:
    """Publish one report.

    Args:
        path: Where the report goes.
    """
    return f"write {path}: " + ctx.io.request_write_approval(path, "the weekly report")
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

test("a write approval answered “always” in the playground holds for that path for the rest of the run", async ({ page }) => {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: {
      declaration: {
        name: "Report writer",
        instructions: "Publish the reports you are asked for.",
        model: { provider: "openai-compatible", model: "scripted", base_url: model.url },
        tools: [{ entry: "tools/io_probe.py" }],
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
  model.reply(call("io_probe__publish", { path: "reports/week.md" }), call("io_probe__publish", { path: "reports/week.md" }), text("Published twice."));

  await page.goto(`/agents/${agentId}/run`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Publish this week's report, twice");
  await box.press("Enter");

  const first = page.getByRole("article", { name: "Tool call: Publish a report" }).first();
  const asked = first.getByRole("region", { name: "Write a file? (asked by the tool)" });
  await expect(asked.getByLabel("Path")).toHaveText("reports/week.md");
  await expect(asked.getByText("the weekly report")).toBeVisible();
  await asked.getByRole("button", { name: "Allow always for this path" }).click();

  await expect(asked.getByRole("status")).toContainText("Allowed for this path for the rest of the run");
  await expect(first.getByLabel("Result")).toHaveText("write reports/week.md: always");

  const second = page.getByRole("article", { name: "Tool call: Publish a report" }).nth(1);
  await expect(second.getByLabel("Result")).toHaveText("write reports/week.md: always");
  await expect(second.getByRole("region", { name: /asked by the tool/ })).toHaveCount(0);
  await expect(second.getByLabel("Progress")).toContainText("was allowed for the rest of this run, so it was not asked again");
  await expect(page.getByLabel("Agent's reply")).toHaveText("Published twice.");
});
