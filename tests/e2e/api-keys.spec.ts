// Settings → API keys as an admin meets it: faults said at their fields, a new key's value shown once and copied
// with one click, the key listed by its prefix and never by its value, and revoked after a confirmation naming it
// (R-key-create, R-key-hash, R-key-revoke).
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

let model: LoopbackModel;
/** A program's own HTTP client: no cookie of the signed-in admin, only what it sends itself. */
let program: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  model = await startLoopbackModel();
  program = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
});

test.afterAll(async () => {
  await program.dispose();
  await model.close();
});

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

test("a key is made, its value shown once and copied, listed by prefix, and revoked", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(page.getByText("No API keys yet — New key")).toBeVisible();
  await expect(page.getByRole("navigation").getByRole("link", { name: "API keys" })).toHaveAttribute("aria-current", "page");

  // Nothing named and nothing ticked: both faults at their fields, and nothing made.
  await page.getByRole("button", { name: "New key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New key" });
  await dialog.getByRole("checkbox", { name: /Run agents/ }).uncheck();
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByText("Give the key a name that says who uses it, like ci-bot or open-webui.")).toBeVisible();
  await expect(dialog.getByText(/^Tick at least one thing the key may do/)).toBeVisible();

  await dialog.getByLabel("Name").fill("ci-bot");
  await dialog.getByRole("checkbox", { name: /Run agents/ }).check();
  await dialog.getByRole("checkbox", { name: /Read runs/ }).check();
  await dialog.getByLabel("Expires").selectOption("30");
  await dialog.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByRole("dialog", { name: "Copy the key ci-bot" });
  const field = shown.getByLabel("Key value");
  await expect(field).toHaveValue(/^qk_[A-Za-z0-9_-]{43}$/);
  const value = await field.inputValue();
  await expect(shown.getByText(/This value will not be shown again/)).toBeVisible();
  await shown.getByRole("button", { name: "Copy the value of ci-bot" }).click();
  await expect(shown.getByRole("button", { name: "Copy the value of ci-bot" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  const row = page.getByRole("row", { name: /ci-bot/ });
  await expect(row.getByRole("cell", { name: `${value.slice(0, 11)}…`, exact: true })).toBeVisible();
  await expect(row).toContainText("All agents");
  await expect(row).toContainText("May run agents, read runs");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Never");
  expect(await page.content()).not.toContain(value);

  // A program with the value is let in, and the row says when the key was last used.
  expect((await program.get("/api/v1/models", { headers: bearer(value) })).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("row", { name: /ci-bot/ })).not.toContainText("Never");
  // Read again from the server, the page still has no value to show.
  expect(await page.content()).not.toContain(value);

  // A new dialog starts empty: the value went with the one before.
  await page.getByRole("button", { name: "New key" }).click();
  await expect(page.getByRole("dialog", { name: "New key" }).getByLabel("Name")).toHaveValue("");
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Revoke ci-bot" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke ci-bot?" });
  await expect(confirm).toContainText(`Every program using ci-bot (${value.slice(0, 11)}…) is refused from its next request on.`);
  await confirm.getByRole("button", { name: "Revoke ci-bot" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("row", { name: /ci-bot/ })).toContainText(/Revoked /);
  await expect(page.getByRole("button", { name: "Revoke ci-bot" })).toHaveCount(0);
  // From the program's very next request.
  const refused = await program.get("/api/v1/models", { headers: bearer(value) });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^This API key "ci-bot" was revoked on /);
});

test("Runs says how each run started and filters by it", async ({ page }) => {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: { declaration: { name: "Greeter", instructions: "Greet.", model: { provider: "openai-compatible", model: "scripted", base_url: model.url }, tools: [] } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
  const made = await page.request.post("/api/trpc/apiKeys.create", { headers: ownOrigin, data: { name: "runner", agents: [agentId], scopes: ["run"] } });
  expect(made.ok(), await made.text()).toBe(true);
  const value = ((await made.json()) as { result: { data: { value: string } } }).result.data.value;

  model.reply(text("Hello from the playground."), text("Hello, program."));
  const played = await page.request.post("/api/trpc/runs.start", { headers: ownOrigin, data: { agentId, message: "Hi." } });
  expect(played.ok(), await played.text()).toBe(true);
  const started = await program.post(`/api/v1/agents/${agentId}/runs`, { headers: bearer(value), data: { message: "Hi." } });
  expect(started.status(), await started.text()).toBe(201);

  await page.goto("/runs");
  const rows = page.getByRole("row", { name: /Greeter/ });
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("row", { name: /Greeter.*API key runner/ })).toContainText("no one, a program");
  await expect(page.getByRole("row", { name: /Greeter.*Playground/ })).toContainText("Admin");
  await page.getByLabel("Started from").selectOption("api");
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("API key runner");
  await page.getByLabel("Started from").selectOption("playground");
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Playground");
});
