// A builder's whole first journey with the keyboard alone (R-a11y-keyboard): sign in, make an agent from a template,
// point it at a model, add a source, narrow it, make one operation ask first, run it, approve the call, stop a run
// and read its trace. No mouse: after each page.goto only page.keyboard. Every Tab stop shows focus
// (R-a11y-focus-visible), every target is reached in a bounded number of presses, and Escape closes each dialog and
// gives focus back to its opener (R-a11y-escape).
import { expect, test, type Page } from "@playwright/test";
import { call, startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { adminState, admin } from "./support/accounts";
import { escapeCloses, tabTo } from "./support/keyboard";
import { ownOrigin } from "./support/origin";

const baseURL = `http://127.0.0.1:${process.env.QUIVER_E2E_PORT}`;
const CONNECTION = "keyboard-loopback";
const NAME = "Keyboard keeper";

let model: LoopbackModel;
let agentId = "";

async function asAdmin<T>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/api/trpc/${path}`, { headers: ownOrigin, data });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

test.beforeAll(async ({ browser }) => {
  model = await startLoopbackModel();
  const setup = await (await browser.newContext({ baseURL, storageState: adminState })).newPage();
  await asAdmin(setup, "models.create", { name: CONNECTION, provider: "openai-compatible", baseUrl: model.url, defaultModel: "scripted" });
  await setup.context().close();
});

test.afterAll(async ({ browser }) => {
  const cleanup = await (await browser.newContext({ baseURL, storageState: adminState })).newPage();
  if (agentId) await cleanup.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id: agentId } });
  await cleanup.request.post("/api/trpc/models.remove", { headers: ownOrigin, data: { name: CONNECTION } });
  await cleanup.context().close();
  await model.close();
});

test("R-a11y-keyboard: a builder signs in, makes, narrows, runs, approves, stops and traces an agent by keyboard alone", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })).newPage();
  const rail = page.getByRole("navigation", { name: "Sections" });

  // Sign in.
  await page.goto("/sign-in");
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type(admin.email);
  await tabTo(page, page.getByLabel("Password"));
  await page.keyboard.type(admin.password);
  await page.keyboard.press("Enter");
  await expect(rail).toBeVisible();

  // A new agent from a template; Escape closes the gallery first and gives focus back to New agent.
  await tabTo(page, rail.getByRole("link", { name: "Agents", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/agents$/);
  const newAgent = page.getByRole("button", { name: "New agent" }).first();
  await tabTo(page, newAgent);
  await page.keyboard.press("Enter");
  const gallery = page.getByRole("dialog", { name: "New agent" });
  await escapeCloses(page, gallery, newAgent);
  await page.keyboard.press("Enter");
  await tabTo(page, gallery.getByRole("button", { name: "Note keeper", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}$/);
  agentId = new URL(page.url()).pathname.split("/").pop()!;

  // Its name, and the model: the connection to the loopback model, picked by typing its name in the select.
  await tabTo(page, page.getByRole("textbox", { name: "Name", exact: true }));
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(NAME);
  const connection = page.getByRole("combobox", { name: "Connection", exact: true });
  await tabTo(page, connection);
  await page.keyboard.type(CONNECTION);
  await expect(connection).toHaveValue(CONNECTION);

  // Add Files from the palette; Escape closes it first and gives focus back to Add a source.
  const addSource = page.getByRole("button", { name: "Add a source" }).first();
  await tabTo(page, addSource);
  await page.keyboard.press("Enter");
  const palette = page.getByRole("dialog", { name: "Add a source" });
  await escapeCloses(page, palette, addSource);
  await page.keyboard.press("Enter");
  await expect(palette.getByRole("searchbox", { name: "Search sources" })).toBeFocused();
  // The built-in Files, not the tree's files.py of the same title.
  const builtIn = palette.getByRole("listitem", { name: "Files", exact: true }).filter({ hasText: "system:filesystem" });
  await tabTo(page, builtIn.getByRole("button", { name: "Add Files" }));
  await page.keyboard.press("Enter");
  await expect(palette).toBeHidden();
  const files = page.getByRole("region", { name: "Files", exact: true });
  await expect(files).toBeVisible();

  // Narrow it: two operations off; then Write a file asks first.
  for (const op of ["Delete a file or folder", "Make a file to download"]) {
    const box = files.getByRole("checkbox", { name: op });
    await tabTo(page, box);
    await page.keyboard.press("Space");
    await expect(box).not.toBeChecked();
  }
  await tabTo(page, files.getByRole("button", { name: "Settings and approval" }));
  await page.keyboard.press("Enter");
  const approval = files.getByRole("combobox", { name: "Approval of Write a file" });
  await tabTo(page, approval);
  await page.keyboard.type("Ask");
  await expect(approval).toHaveValue("ASK");
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: NAME })).toBeVisible();

  // Run it; the write waits for approval, and Enter on Approve lets it run.
  model.reply(call("write_file", { path: "keyboard.txt", content: "Typed, not clicked" }), text("I wrote keyboard.txt."));
  await tabTo(page, page.getByRole("link", { name: "Run", exact: true }), { back: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/run$/);
  const message = page.getByRole("textbox", { name: "Message" });
  await tabTo(page, message);
  await page.keyboard.type("Please write keyboard.txt");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?run=[0-9a-f-]{36}$/);
  const runId = new URL(page.url()).searchParams.get("run")!;
  const first = page.getByRole("article", { name: "Tool call: Write a file" }).first();
  await expect(first.getByText("Waiting for your approval")).toBeVisible();
  await tabTo(page, first.getByRole("button", { name: "Approve", exact: true }));
  await page.keyboard.press("Enter");
  await expect(first.getByRole("status")).toHaveText("Done");
  await expect(page.getByLabel("Agent's reply")).toHaveText("I wrote keyboard.txt.");

  // Another turn waits on its approval, and Stop, reached by Tab, ends the run.
  model.reply(call("write_file", { path: "never.txt", content: "never" }));
  await tabTo(page, message, { back: true });
  await page.keyboard.type("Now write never.txt");
  await page.keyboard.press("Enter");
  const details = page.getByRole("complementary", { name: "Run details" });
  await expect(details).toContainText("Waiting for approval");
  await tabTo(page, page.getByRole("button", { name: "Stop", exact: true }));
  await page.keyboard.press("Enter");
  await expect(details.getByText("Stopped", { exact: true })).toBeVisible();

  // The trace: Runs in the rail, then the run's row.
  await tabTo(page, rail.getByRole("link", { name: "Runs", exact: true }), { back: true, max: 80 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/runs$/);
  const row = page.getByRole("link", { name: NAME }).first();
  await tabTo(page, row);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByRole("article", { name: "Tool call: Write a file" }).first().getByRole("status")).toHaveText("Done");
  await page.context().close();
});
