// Specialists as a builder meets them: the palette's Agents group lists the other agents (never the one being edited),
// adding one offers the model its ask tool; in the playground the specialist's call waits for approval inside the
// asking call's card, is approved there, and its reply comes back; the card links to the specialist's own run, which
// links back; and adding the asker to its specialist is refused naming the loop (R-spec-entry, R-spec-approvals,
// R-spec-run, R-spec-cycle).
import { expect, test, type Page } from "@playwright/test";
import { call, startLoopbackModel, text, type LoopbackModel, type RecordedRequest, type Reply } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

let model: LoopbackModel;

test.beforeAll(async () => {
  model = await startLoopbackModel();
});

test.afterAll(async () => {
  await model.close();
});

/** Each agent's instructions say who it is; the model answers each from its own script. */
function script(byAgent: Record<string, Reply[]>): void {
  model.reset();
  model.fallback = (request: RecordedRequest) => {
    const system = request.body.messages.find((m) => m.role === "system")?.content;
    const who = typeof system === "string" ? /You are (\w+)\./.exec(system)?.[1] : undefined;
    const next = who ? byAgent[who]?.shift() : undefined;
    if (!next) return { status: 500, message: `nothing scripted for ${who ?? "an unknown agent"}` };
    return typeof next === "function" ? next(request) : next;
  };
}

async function agentWith(page: Page, declaration: Record<string, unknown>): Promise<string> {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: { declaration: { model: { provider: "openai-compatible", model: "scripted", base_url: model.url }, ...declaration } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
}

test("a builder adds another agent from the palette, and its approval is given inside the asking call's card", async ({ page }) => {
  const scribe = await agentWith(page, {
    name: "Scribe",
    instructions: "You are scribe.",
    tools: [{ entry: "system:filesystem#write_file", settings: { root: "scribe" }, permissions: { write_file: "ASK" } }],
  });
  const lead = await agentWith(page, { name: "Desk lead", instructions: "You are lead.", tools: [] });

  await page.goto(`/agents/${lead}`);
  await page.getByRole("button", { name: "Add a source" }).first().click();
  const palette = page.getByRole("dialog", { name: "Add a source" });
  const others = palette.getByRole("list", { name: "Agents" });
  await expect(others.getByRole("listitem", { name: "Scribe", exact: true })).toBeVisible();
  await expect(others.getByRole("listitem", { name: "Desk lead" })).toHaveCount(0);
  // Found by the same search as every source.
  await palette.getByRole("searchbox", { name: "Search sources" }).fill("scribe");
  await others.getByRole("listitem", { name: "Scribe", exact: true }).getByRole("button", { name: "Add Scribe" }).click();
  await expect(palette).toBeHidden();
  const seen = page.getByRole("complementary", { name: "What the model sees" });
  await expect(seen.getByRole("list", { name: "Tools the model is offered" }).getByRole("listitem")).toHaveText([/ask_scribe/]);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Unsaved changes")).toBeHidden();

  script({
    lead: [call("ask_scribe", { message: "Write hello.txt saying hello." }), text("Scribe wrote it.")],
    scribe: [call("write_file", { path: "hello.txt", content: "hello" }), text("hello.txt is written.")],
  });
  await page.getByRole("link", { name: "Run", exact: true }).click();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Get hello.txt written.");
  await box.press("Enter");

  const asking = page.getByRole("article", { name: "Tool call: Ask Scribe" });
  const nested = asking.getByRole("article", { name: "Tool call: Write a file" });
  await expect(nested.getByText("Waiting for your approval")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("complementary", { name: "Run details" })).toContainText("Waiting for approval");
  await nested.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(nested).toContainText("Approved once");
  await expect(asking.getByRole("status").first()).toHaveText("Done", { timeout: 30_000 });
  await expect(asking.getByLabel("Result").last()).toHaveText("hello.txt is written.");
  await expect(page.getByLabel("Agent's reply")).toHaveText("Scribe wrote it.");

  // The specialist's run is a run of its own, and says who asked it.
  await asking.getByRole("link", { name: "Open the specialist’s run" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("article", { name: "Tool call: Write a file" })).toContainText("Approved once");
  await page.getByRole("link", { name: "the run that asked" }).click();
  await expect(page.getByRole("article", { name: "Tool call: Ask Scribe" })).toBeVisible();

  // Scribe asking Desk lead back would close a loop: refused, naming it.
  await page.goto(`/agents/${scribe}`);
  await page.getByRole("button", { name: "Add a source" }).first().click();
  await page.getByRole("dialog", { name: "Add a source" }).getByRole("button", { name: "Add Desk lead" }).click();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("This makes a loop of specialists (Scribe → Desk lead → Scribe)").first()).toBeVisible();

  for (const id of [lead, scribe]) expect((await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id } })).ok()).toBe(true);
});
