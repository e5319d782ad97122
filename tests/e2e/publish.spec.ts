// Publishing the tree: refused while any file has an error (the first error of each failing file),
// accepted once fixed; then History compares two versions, in code and in what the model sees.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectEditorReady } from "./support/monaco";

const tree = process.env.QUIVER_E2E_TOOLS!;
const file = path.join(tree, "packing.py");

const packing = (extra: string) => `"""What to pack for a trip."""


def list_items(days: int${extra}) -> list[str]:
    """List what to pack for a trip of some days.

    Args:
        days: How long the trip is.
    """
    return ["toothbrush"] * days
`;

async function publish(page: Page, message: string) {
  await page.getByRole("button", { name: "Publish", exact: true }).first().click();
  const dialog = page.getByRole("dialog", { name: "Publish the tool tree" });
  await dialog.getByLabel("What changed").fill(message);
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  return dialog;
}

test("publish is refused while a file has an error, naming the file and its first error, then accepted", async ({ page }) => {
  fs.writeFileSync(file, packing(""));
  fs.writeFileSync(path.join(tree, "unfinished.py"), `"""Half written."""\n\n\ndef pick(colour) -> str:\n    """Pick a colour."""\n    return colour\n`);
  await page.goto("/tools/packing.py");
  await expectEditorReady(page);

  const refused = await publish(page, "packing: first version");
  const problems = refused.getByRole("list", { name: "Files with errors" });
  await expect(problems).toBeVisible({ timeout: 20_000 });
  await expect(problems.getByText("unfinished.py")).toBeVisible();
  await expect(problems.getByText(", line 4")).toBeVisible();

  fs.rmSync(path.join(tree, "unfinished.py"));
  await refused.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(refused.getByRole("status")).toContainText(/Published [0-9a-f]{7}/, { timeout: 20_000 });
  await refused.getByRole("button", { name: "Done" }).click();

  // Publishing again with nothing changed says so instead of making an empty version.
  const again = await publish(page, "again");
  await expect(again.getByRole("status")).toContainText(/[Nn]othing/, { timeout: 20_000 });
});

test("History compares two published versions: the code and what the model sees differently", async ({ page }) => {
  const luggage = path.join(tree, "luggage.py");
  fs.writeFileSync(luggage, packing("").replace("What to pack", "Luggage"));
  await page.goto("/tools/luggage.py");
  await expectEditorReady(page);
  for (const [message, extra] of [
    ["luggage: first version", ""],
    ["luggage: cold trips", ", cold: bool = False"],
  ] as const) {
    fs.writeFileSync(luggage, packing(extra).replace("What to pack", "Luggage"));
    const dialog = await publish(page, message);
    await expect(dialog.getByRole("status")).toContainText(/Published/, { timeout: 20_000 });
    await dialog.getByRole("button", { name: "Done" }).click();
  }

  await page.getByRole("tab", { name: "History" }).click();
  const history = page.getByRole("tabpanel", { name: "History" });
  await expect(history.getByText("luggage: cold trips", { exact: true })).toBeVisible();
  await expect(history.getByText("luggage: first version", { exact: true })).toBeVisible();
  // Newest first: from the oldest published version to the newest.
  await history.getByRole("radio", { name: /Compare from [0-9a-f]{7}/ }).last().check();
  await history.getByRole("radio", { name: /Compare to [0-9a-f]{7}/ }).first().check();
  const changes = history.getByRole("region", { name: "What the model sees differently" });
  await expect(changes.getByText("luggage__list_items: added optional parameter cold (boolean)")).toBeVisible();
  await expect(history.getByTestId("history-diff")).toBeVisible();
});
