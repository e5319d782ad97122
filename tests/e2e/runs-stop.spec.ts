// Stopping a run, as a builder meets it in the playground: Stop (or Escape) ends a run that waits for approval or
// on a slow model, the run reads Stopped and says who stopped it, and another message continues it. A question
// reads as waiting for your answer, and /runs follows a run that is still going without a reload.
import { expect, test, type Page } from "@playwright/test";
import { call, startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

let model: LoopbackModel;

test.beforeAll(async () => {
  model = await startLoopbackModel();
});

test.beforeEach(() => model.reset());

test.afterAll(async () => {
  await model.close();
});

async function createAgent(page: Page, name: string, tools: unknown[]): Promise<string> {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: { declaration: { name, instructions: "Do what you are asked.", model: { provider: "openai-compatible", model: "scripted", base_url: model.url }, tools } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
}

async function removeAgent(page: Page, id: string): Promise<void> {
  expect((await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id } })).ok()).toBe(true);
}

async function startRun(page: Page, agentId: string, message: string): Promise<string> {
  await page.goto(`/agents/${agentId}/run`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(message);
  await box.press("Enter");
  await expect(page).toHaveURL(/\?run=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get("run")!;
}

test("Stop ends a run waiting for approval: the call never runs, the run reads Stopped by its stopper, and a reply continues it", async ({ page }) => {
  const agentId = await createAgent(page, "Stoppable scribe", [
    { entry: "system:filesystem#write_file", settings: { root: "stopped" }, permissions: { write_file: "ASK" } },
  ]);
  model.reply(call("write_file", { path: "never.txt", content: "never written" }), text("Understood, I wrote nothing."));
  await startRun(page, agentId, "Please write never.txt");

  const details = page.getByRole("complementary", { name: "Run details" });
  const card = page.getByRole("article", { name: "Tool call: Write a file" });
  await expect(card.getByText("Waiting for your approval")).toBeVisible();
  await expect(details).toContainText("Waiting for approval");
  const stop = page.getByRole("button", { name: "Stop" });
  await expect(stop).toHaveAttribute("title", "Stop the run (Esc)");
  await stop.click();

  await expect(details.getByText("Stopped", { exact: true })).toBeVisible();
  await expect(details.getByRole("term").filter({ hasText: "Stopped by" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Conversation" })).toContainText("Stopped by Admin.");
  await expect(card.getByRole("status")).toHaveText("Refused");
  await expect(card.getByLabel("Result")).toContainText("stopped the run before this call ran");
  await expect(stop).toHaveCount(0);

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Never mind.");
  await box.press("Enter");
  await expect(page.getByLabel("Agent's reply")).toHaveText("Understood, I wrote nothing.");
  await expect(details).toContainText("Done");
  await removeAgent(page, agentId);
});

test("Escape stops a run whose model is slow to answer", async ({ page }) => {
  const agentId = await createAgent(page, "Slow thinker", []);
  model.reply(text("Too late.", { delayMs: 15_000 }));
  await startRun(page, agentId, "Think about it.");

  const details = page.getByRole("complementary", { name: "Run details" });
  await expect(details).toContainText("Running");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(details.getByText("Stopped", { exact: true })).toBeVisible({ timeout: 5_000 });
  await expect(page.getByRole("list", { name: "Conversation" })).toContainText("Stopped by Admin.");
  await expect(page.getByLabel("Agent's reply")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await removeAgent(page, agentId);
});

test("a question reads as waiting for your answer, and /runs follows the run until it is stopped", async ({ page }) => {
  const name = "Curious sorter";
  const agentId = await createAgent(page, name, [{ entry: "system:ask_user" }]);
  model.reply(call("ask_user", { question: "Which inbox?" }));
  const runId = await startRun(page, agentId, "Sort my mail.");
  await expect(page.getByRole("complementary", { name: "Run details" })).toContainText("Waiting for your answer");

  await page.goto("/runs");
  await expect(page.getByRole("row", { name: new RegExp(`${name}.*Waiting for your answer`) })).toBeVisible();
  // Stopped elsewhere (another tab, another person): the list moves on without a reload.
  const stopped = await page.request.post("/api/trpc/runs.cancel", { headers: ownOrigin, data: { runId } });
  expect(stopped.ok(), await stopped.text()).toBe(true);
  await expect(page.getByRole("row", { name: new RegExp(`${name}.*Stopped`) })).toBeVisible({ timeout: 10_000 });

  const again = await page.request.post("/api/trpc/runs.cancel", { headers: ownOrigin, data: { runId } });
  expect(again.ok()).toBe(false);
  expect(await again.text()).toContain("This run has already ended, so there is nothing to stop");
  await removeAgent(page, agentId);
});
