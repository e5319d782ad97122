// The agent page's Triggers as a builder meets them: a schedule's next five times follow the typing and a fault is
// said at its field; the saved schedule lists its times; a webhook's address is shown once and copied with one
// click, a program POSTs to it without a cookie, and the run it started is in Runs marked Webhook
// (R-trigger-schedule-cron, R-trigger-webhook-token, R-trigger-webhook-origin, R-trigger-run-as).
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { ownOrigin } from "./support/origin";

const NAME = "Morning greeter";

let model: LoopbackModel;
/** A program's own HTTP client: no cookie of the signed-in admin, only what it sends itself. */
let program: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  model = await startLoopbackModel();
  program = await playwright.request.newContext({ storageState: { cookies: [], origins: [] } });
});

test.afterAll(async () => {
  await program.dispose();
  await model.close();
});

test("a schedule shows its next five times as it is typed, and a webhook's copied address starts a run marked Webhook", async ({ page, context, baseURL }) => {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: { declaration: { name: NAME, instructions: "Greet.", model: { provider: "openai-compatible", model: "scripted", base_url: model.url }, tools: [] } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;

  await page.goto(`/agents/${agentId}`);
  const triggers = page.getByRole("region", { name: "Triggers" });
  await triggers.scrollIntoViewIfNeeded();
  await expect(triggers.getByText(/^No schedules yet — Add a schedule/)).toBeVisible();
  await expect(triggers.getByText(/^No webhook yet — Make a webhook/)).toBeVisible();

  // The schedule: a wrong hour is said at the cron field, the right one gives five times at 9:00 in Paris.
  await triggers.getByRole("button", { name: "Add a schedule" }).click();
  const form = triggers.getByRole("form", { name: "New schedule" });
  await form.getByLabel("Time zone").fill("Europe/Paris");
  await form.getByLabel("Cron expression").fill("0 25 * * 1-5");
  await expect(form.getByText(/^The hour field “25” is not one cron reads/)).toBeVisible();
  await form.getByLabel("Cron expression").fill("0 9 * * 1-5");
  const times = form.getByRole("list", { name: "Next five times" }).getByRole("listitem");
  await expect(times).toHaveCount(5);
  for (const time of await times.allTextContents()) expect(time).toMatch(/^(Mon|Tue|Wed|Thu|Fri) \d{1,2} \w{3} \d{4}, 09:00$/);
  await form.getByLabel("Message").fill("Say good morning to the team.");
  await form.getByRole("button", { name: "Save schedule" }).click();
  await expect(form).toBeHidden();
  const row = triggers.getByRole("listitem", { name: "Schedule 0 9 * * 1-5 (Europe/Paris)" });
  await expect(row).toContainText("Say good morning to the team.");
  await expect(row.getByRole("list", { name: "Next five times of 0 9 * * 1-5 (Europe/Paris)" }).getByRole("listitem")).toHaveCount(5);
  await expect(row.getByRole("checkbox", { name: "On: 0 9 * * 1-5 (Europe/Paris)" })).toBeChecked();

  // The webhook: its address shown once, copied with one click.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await triggers.getByRole("button", { name: "Make a webhook" }).click();
  const field = triggers.getByRole("textbox", { name: "Webhook address" });
  await expect(field).toHaveValue(new RegExp(`^${baseURL}/api/hooks/${agentId}/wh_[A-Za-z0-9_-]{43}$`));
  const address = await field.inputValue();
  await expect(triggers.getByText(/it will not be shown again/)).toBeVisible();
  await triggers.getByRole("button", { name: "Copy the webhook address" }).click();
  await expect(triggers.getByRole("button", { name: "Copy the webhook address" })).toHaveText("Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(address);

  // A program with no cookie and its own Origin posts to the copied address.
  model.reply(text("Good morning!"));
  const posted = await program.post(copied, { headers: { origin: "https://ci.example.com" }, data: { event: "deploy", status: "green" } });
  expect(posted.status(), await posted.text()).toBe(202);
  const { runId } = (await posted.json()) as { runId: string };

  // Read again, the page has only the address's first characters.
  await page.reload();
  await expect(page.getByRole("region", { name: "Triggers" }).getByText(`${baseURL}/api/hooks/${agentId}/${address.split("/").pop()!.slice(0, 7)}…`)).toBeVisible();
  expect(await page.content()).not.toContain(address.split("/").pop()!);

  await page.goto("/runs");
  const run = page.getByRole("row", { name: new RegExp(NAME) });
  await expect(run).toHaveCount(1);
  await expect(run).toContainText("Webhook");
  await expect(run).toContainText("Admin");
  await page.getByLabel("Started from").selectOption("webhook");
  await expect(page.getByRole("row", { name: new RegExp(NAME) })).toHaveCount(1);
  await run.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByText('"status": "green"')).toBeVisible();
});
