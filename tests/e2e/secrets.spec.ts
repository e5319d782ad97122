// Settings → Secrets and the secret picker, as an admin meets them: a value goes in once and is never shown
// again, a secret is picked by name in Try it with the file's help and check, and deleting one that is used
// is refused with the sentence naming what uses it.
import { expect, test, type Page } from "@playwright/test";

const VALUE = "tkt_e2e_first_value_0123456789";
const ROTATED = "tkt_e2e_rotated_value_0123456789";
const BAD = "not-a-tracker-token";

async function newSecret(page: Page, name: string, value: string, description: string) {
  await page.getByRole("button", { name: "New secret" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New secret" });
  await dialog.getByLabel("Name").fill(name);
  await expect(dialog.getByLabel("Value")).toHaveAttribute("type", "password");
  await expect(dialog.getByLabel("Value")).toHaveAttribute("autocomplete", "off");
  await dialog.getByLabel("Value").fill(value);
  await dialog.getByLabel("Description").fill(description);
  await dialog.getByRole("button", { name: "Save secret" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row", { name: new RegExp(name, "i") })).toBeVisible();
}

async function expectNoValueIn(page: Page) {
  const html = await page.content();
  for (const value of [VALUE, ROTATED, BAD]) expect(html).not.toContain(value);
}

test("a secret is created, rotated and picked by name, and never shown", async ({ page }) => {
  await page.goto("/settings/secrets");
  await expect(page.getByRole("heading", { name: "Secrets" })).toBeVisible();
  // A spec before this one may have made a secret (a model connection's key): the empty state shows only without any.
  await expect(page.getByText("No secrets yet").or(page.getByRole("table"))).toBeVisible();

  await newSecret(page, "tickets_token", VALUE, "The tracker's API token");
  await expect(page.getByRole("cell", { name: "TICKETS_TOKEN", exact: true })).toBeVisible();
  await newSecret(page, "BAD_TOKEN", BAD, "Not a tracker token");
  await expectNoValueIn(page);

  // The value field is empty when the dialog opens again.
  await page.getByRole("button", { name: "New secret" }).click();
  await expect(page.getByRole("dialog", { name: "New secret" }).getByLabel("Value")).toHaveValue("");
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Rotate TICKETS_TOKEN" }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate TICKETS_TOKEN" });
  await expect(rotate.getByLabel("New value")).toHaveAttribute("type", "password");
  await rotate.getByLabel("New value").fill(ROTATED);
  await rotate.getByRole("button", { name: "Save new value" }).click();
  await expect(rotate).toBeHidden();
  await expectNoValueIn(page);

  // Try it: the token setting is a picker of names, with the file's CREDENTIAL_HELP and check_secret's sentence.
  await page.goto("/tools/tickets.py");
  await page.getByRole("tab", { name: "Try it" }).click();
  const panel = page.getByRole("tabpanel", { name: "Try it" });
  await panel.getByRole("combobox", { name: "Operation" }).selectOption("tickets__lookup");
  const picker = panel.getByRole("combobox", { name: "token" });
  await expect(panel.getByText(/A tracker API token: it starts with tkt_/)).toBeVisible();
  await picker.selectOption("BAD_TOKEN");
  await expect(panel.getByText("this is not a tracker token: a token starts with tkt_ and is 24 characters or more")).toBeVisible();
  await picker.selectOption("TICKETS_TOKEN");
  await expect(panel.getByText("TICKETS_TOKEN is accepted for token.")).toBeVisible();
  await panel.getByLabel("key").fill("OPS-12");
  await panel.getByRole("button", { name: "Run" }).click();
  await expect(panel.getByRole("region", { name: "Result" }).getByRole("status")).toHaveText("Succeeded");
  await panel.getByRole("textbox", { name: "Example name" }).fill("look up with the token");
  await panel.getByRole("button", { name: "Save as example" }).click();
  await expect(panel.getByRole("region", { name: "Examples" }).getByText("look up with the token")).toBeVisible();
  await expectNoValueIn(page);

  // Deleting a secret that is used is refused, naming what uses it; an unused one goes.
  await page.goto("/settings/secrets");
  await expect(page.getByRole("row", { name: /TICKETS_TOKEN/ }).getByRole("link", { name: /look up with the token/ })).toBeVisible();
  await page.getByRole("button", { name: "Delete TICKETS_TOKEN" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete TICKETS_TOKEN?" });
  await confirm.getByRole("button", { name: "Delete TICKETS_TOKEN" }).click();
  await expect(confirm.getByRole("alert")).toHaveText(
    /TICKETS_TOKEN is still used by the Try it example “look up with the token” of tickets\.py \(tickets__lookup\)/,
  );
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Delete BAD_TOKEN" }).click();
  await page.getByRole("dialog", { name: "Delete BAD_TOKEN?" }).getByRole("button", { name: "Delete BAD_TOKEN" }).click();
  await expect(page.getByRole("cell", { name: "BAD_TOKEN", exact: true })).toBeHidden();
  await expectNoValueIn(page);
});
