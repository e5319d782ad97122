// Runs, as a builder meets them: in the playground a message starts a run, a write set to ask first waits on an
// approval card, approving it runs the call and shows the result the model got and the model's final answer; the
// run is listed under Runs and reads back as a trace, and the write is in the audit log as tool.executed.
import { expect, test } from "@playwright/test";
import { call, startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

const NAME = "Playground scribe";

let model: LoopbackModel;

test.beforeAll(async () => {
  model = await startLoopbackModel();
});

test.afterAll(async () => {
  await model.close();
});

test("a write that asks first waits for approval, then runs, and the run is traced and audited", async ({ page }) => {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: {
      declaration: {
        name: NAME,
        instructions: "Write what you are asked to write.",
        model: { provider: "openai-compatible", model: "scripted", base_url: model.url },
        tools: [{ entry: "system:filesystem#write_file", settings: { root: "scribe" }, permissions: { write_file: "ASK" } }],
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;

  model.reply(call("write_file", { path: "hello.txt", content: "Hello from the playground" }), text("I wrote hello.txt for you."));

  // From the agent's page, Run opens the playground.
  await page.goto(`/agents/${agentId}`);
  await page.getByRole("link", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/agents/${agentId}/run$`));
  await expect(page.getByText(`Send a message to start a run of ${NAME}`)).toBeVisible();

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Please write hello.txt");
  await box.press("Enter");
  await expect(page).toHaveURL(/\?run=[0-9a-f-]{36}$/);
  await expect(page.getByLabel("Your message")).toHaveText("Please write hello.txt");

  const card = page.getByRole("article", { name: "Tool call: Write a file" });
  await expect(card.getByText("Waiting for your approval")).toBeVisible();
  await expect(card).toContainText("Hello from the playground");
  await expect(page.getByRole("complementary", { name: "Run details" })).toContainText("Waiting for approval");
  await card.getByRole("button", { name: "Approve", exact: true }).click();

  await expect(card.getByRole("status")).toHaveText("Done");
  await expect(card).toContainText("Approved once");
  await expect(card.getByLabel("Result")).not.toBeEmpty();
  await expect(page.getByLabel("Agent's reply")).toHaveText("I wrote hello.txt for you.");
  await expect(page.getByRole("complementary", { name: "Run details" })).toContainText("Done");
  // The model was told the result of the call it made.
  expect(model.requests).toHaveLength(2);
  expect(model.requests[1]!.body.messages.some((m) => m.role === "tool")).toBe(true);

  // Runs lists it; it reads back with the same cards and no buttons.
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Runs" }).click();
  await expect(page.getByRole("row", { name: new RegExp(`${NAME}.*Done`) })).toBeVisible();
  await page.getByRole("link", { name: NAME }).first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const traced = page.getByRole("article", { name: "Tool call: Write a file" });
  await expect(traced.getByRole("status")).toHaveText("Done");
  await expect(traced.getByRole("button")).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveCount(0);

  // The write is audited.
  await page.goto("/settings/audit");
  await expect(page.getByRole("cell", { name: "tool.executed", exact: true }).first()).toBeVisible();

  // The agents list says when it last ran.
  await page.goto("/agents");
  const row = page.getByRole("row", { name: new RegExp(NAME) });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell", { name: "Never" })).toHaveCount(0);

  const removed = await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id: agentId } });
  expect(removed.ok()).toBe(true);
});
