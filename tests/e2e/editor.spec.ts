// The tool editor, as a developer meets it: create a file, watch the schema appear while typing, fix an
// error at its line, save, call the operation by hand, and never lose work to another tab.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectEditorReady, replaceEditorText } from "./support/monaco";

const tree = process.env.QUIVER_E2E_TOOLS!;

const weather = (extra = "") => `"""Weather for the places a traveller asks about."""


def forecast(city: str, days: int = 3) -> str:
    """Say what the weather will be in one city for the next few days.

    Args:
        city: The city, as its inhabitants spell it.
        days: How many days ahead, from 1 to 7.
    """
    return f"{city}: sunny for {days} days"
${extra}`;

async function openNewFile(page: Page, name: string) {
  await page.goto("/tools");
  await page.getByRole("button", { name: "New tool file" }).first().click();
  await page.getByRole("textbox", { name: "File name" }).fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(new RegExp(`/tools/${name}\\.py$`));
  await expectEditorReady(page);
}

const preview = (page: Page) => page.getByRole("tabpanel", { name: "Schema preview" });
const problems = (page: Page) => page.getByRole("region", { name: "Problems" });

test("a new tool file's schema appears in the preview while typing, before any save", async ({ page }) => {
  await openNewFile(page, "weather");
  await expect(preview(page).getByRole("heading", { name: "weather__hello" })).toBeVisible();
  await replaceEditorText(page, weather());
  const card = preview(page).getByRole("article", { name: "weather__forecast" });
  await expect(card).toBeVisible();
  await expect(card.getByText("Say what the weather will be in one city for the next few days.", { exact: true })).toBeVisible();
  await expect(card.getByRole("cell", { name: "city", exact: true })).toBeVisible();
  await expect(card.getByRole("cell", { name: "The city, as its inhabitants spell it." })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /Unsaved/ })).toBeVisible();
  // Nothing reached the disk yet.
  expect(fs.readFileSync(path.join(tree, "weather.py"), "utf8")).not.toContain("forecast");
});

test("the preview's answer says where its time went and comes uncompressed (R-preview-server-timing)", async ({ page }) => {
  await openNewFile(page, "timed");
  const answered = page.waitForResponse((res) => res.url().endsWith("/api/trpc/tools.preview") && res.request().postData()?.includes("forecast") === true);
  await replaceEditorText(page, weather());
  const answer = await answered;
  const headers = await answer.allHeaders();
  expect(headers["server-timing"]).toMatch(/^session;dur=[\d.]+, derive;dur=[\d.]+, handler;dur=[\d.]+$/);
  expect(headers["content-encoding"]).toBeUndefined();
  expect(headers["cache-control"]).toBe("no-store, no-transform");
  await expect(preview(page).getByRole("article", { name: "timed__forecast" })).toBeVisible();
});

test("each preview request carries the text the editor holds as it leaves, however the keys come (R-editor-key-quiet)", async ({ page }) => {
  await openNewFile(page, "burst");
  await replaceEditorText(page, weather());
  const card = preview(page).getByRole("article", { name: "burst__forecast" });
  await expect(card).toBeVisible();
  // Counted in the page: each typed letter as the editor takes it in, and each preview request's text as it leaves.
  await page.evaluate(() => {
    const seen = { typed: 0, sent: [] as number[], behind: [] as string[] };
    (window as unknown as { __keys: typeof seen }).__keys = seen;
    // The code editor takes keys through the browser's EditContext: its text updates are the letters it took in.
    const context = (document.querySelector(".monaco-editor .native-edit-context") as (HTMLElement & { editContext?: EventTarget }) | null)?.editContext;
    if (!context) throw new Error("the code editor takes keys without an EditContext here");
    context.addEventListener("textupdate", (event) => void ((event as Event & { text: string }).text === "x" && seen.typed++));
    const send = window.fetch;
    window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
      if (String(input instanceof Request ? input.url : input).includes("tools.preview")) {
        const letters = /forecast\(city(x*)/.exec(String(init?.body ?? ""))?.[1]?.length ?? 0;
        seen.sent.push(letters);
        if (letters !== seen.typed) seen.behind.push(`sent ${letters} letters with ${seen.typed} typed`);
      }
      return send.call(this, input, init);
    };
  });
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("ControlOrMeta+Home");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Home");
  for (let i = 0; i < "def forecast(city".length; i++) await page.keyboard.press("ArrowRight");
  // Bursts of keys closer than the pause, then a pause that derives: the drawing lags the text between them.
  let typed = 0;
  for (const size of [1, 3, 2, 4, 1, 5, 2, 3]) {
    for (let k = 0; k < size; k++) await page.keyboard.press("x", { delay: 0 });
    typed += size;
    await expect(card.getByRole("cell", { name: `city${"x".repeat(typed)}`, exact: true })).toBeVisible();
    await page.waitForTimeout(60);
  }
  const seen = await page.evaluate(() => (window as unknown as { __keys: { typed: number; sent: number[]; behind: string[] } }).__keys);
  expect(seen.typed).toBe(typed);
  expect(seen.sent.at(-1)).toBe(typed);
  expect(seen.behind).toEqual([]);
});

test("an error shows at its line in Problems, a click goes there, and fixing it clears it", async ({ page }) => {
  await openNewFile(page, "broken");
  await replaceEditorText(page, `"""Broken on purpose."""\n\n\ndef add(a: int, b) -> int:\n    """Add two numbers."""\n    return a + b\n`);
  const problem = problems(page).getByRole("button", { name: /line 4/ });
  await expect(problem).toBeVisible();
  await expect(problem).toContainText("b");
  await expect(page.locator(".monaco-editor .squiggly-error").first()).toBeVisible();
  await problem.click();
  await expect(page.locator(".monaco-editor .line-numbers.active-line-number")).toHaveText("4");
  await replaceEditorText(page, `"""Fixed."""\n\n\ndef add(a: int, b: int) -> int:\n    """Add two numbers."""\n    return a + b\n`);
  await expect(problems(page).getByText("No problems")).toBeVisible();
});

test("while the buffer does not parse, the last good preview stays, marked stale", async ({ page }) => {
  await openNewFile(page, "stale_check");
  await replaceEditorText(page, weather().replace("weather", "stale_check"));
  await expect(preview(page).getByRole("article", { name: "stale_check__forecast" })).toBeVisible();
  await replaceEditorText(page, weather() + "\ndef oops(:\n");
  await expect(preview(page).getByText(/Stale/)).toBeVisible();
  await expect(preview(page).getByRole("article", { name: "stale_check__forecast" })).toBeVisible();
  await expect(problems(page).getByText(/SyntaxError/)).toBeVisible();
});

test("Ctrl+S saves atomically, and Try it calls the saved operation with a generated form", async ({ page }) => {
  await openNewFile(page, "trip");
  await replaceEditorText(page, weather().replace("weather", "trip"));
  await expect(preview(page).getByRole("article", { name: "trip__forecast" })).toBeVisible();
  await page.keyboard.press("ControlOrMeta+S");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  expect(fs.readFileSync(path.join(tree, "trip.py"), "utf8")).toContain("def forecast(city: str, days: int = 3)");

  await page.getByRole("tab", { name: "Try it" }).click();
  await expect(page.getByRole("combobox", { name: "Operation" })).toHaveValue("trip__forecast");
  await expect(page.getByLabel("days")).toHaveValue("3");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText("city is required.")).toBeVisible();
  await page.getByLabel("city").fill("Lisbon");
  await page.getByLabel("days").fill("2.5");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText("days must be a whole number")).toBeVisible();
  await page.getByLabel("days").fill("2");
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("try-result")).toHaveText("Lisbon: sunny for 2 days");
  await expect(page.getByRole("region", { name: "Result" }).getByRole("status")).toHaveText("Succeeded");
  await page.getByRole("textbox", { name: "Example name" }).fill("Lisbon, two days");
  await page.getByRole("button", { name: "Save as example" }).click();
  await expect(page.getByRole("region", { name: "Examples" }).getByText("Lisbon, two days")).toBeVisible();
});

test("an exception in the tool comes back as <Type>: <message>", async ({ page }) => {
  await openNewFile(page, "fails");
  await replaceEditorText(
    page,
    `"""Fails."""\n\n\ndef read(start: int) -> str:\n    """Read from a line.\n\n    Args:\n        start: First line, counted from 1.\n    """\n    raise ValueError("lines are counted from 1; start=0 reads nothing")\n`,
  );
  await expect(preview(page).getByRole("article", { name: "fails__read" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.getByRole("tab", { name: "Try it" }).click();
  await page.getByLabel("start").fill("0");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("try-result")).toHaveText("ValueError: lines are counted from 1; start=0 reads nothing");
  await expect(page.getByRole("region", { name: "Result" }).getByRole("status")).toHaveText("Failed");
});

test("two tabs never silently overwrite each other: the second save is refused and shows a diff to merge", async ({ browser }) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await openNewFile(first, "shared");
  const second = await context.newPage();
  await second.goto("/tools/shared.py");
  await expectEditorReady(second);

  await replaceEditorText(second, weather().replace("weather", "shared"));
  await second.keyboard.press("ControlOrMeta+S");
  await expect(second.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  await replaceEditorText(first, `"""Mine."""\n\n\ndef mine(x: str) -> str:\n    """Mine."""\n    return x\n`);
  await first.keyboard.press("ControlOrMeta+S");
  await expect(first.getByRole("alert").filter({ hasText: "changed on disk" })).toBeVisible();
  await expect(first.getByTestId("conflict-diff")).toBeVisible();
  expect(fs.readFileSync(path.join(tree, "shared.py"), "utf8")).toContain("def forecast");

  await first.getByRole("button", { name: "Save merged version" }).click();
  await expect(first.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  expect(fs.readFileSync(path.join(tree, "shared.py"), "utf8")).toContain("def mine");
  await context.close();
});

test("unsaved edits survive a reload, kept as a draft on the server", async ({ page }) => {
  await openNewFile(page, "drafty");
  await replaceEditorText(page, `"""Draft."""\n\n\ndef kept(x: str) -> str:\n    """Kept across reloads."""\n    return x\n`);
  await expect(page.getByRole("status").filter({ hasText: "Unsaved · draft kept" })).toBeVisible();
  await page.reload();
  await expectEditorReady(page);
  await expect(page.getByText(/Restored your unsaved edits/)).toBeVisible();
  await expect(preview(page).getByRole("article", { name: "drafty__kept" })).toBeVisible();
});

test("a file name that is not a module name is refused with a sentence saying what to write", async ({ page }) => {
  await page.goto("/tools");
  await page.getByRole("button", { name: "New tool file" }).first().click();
  await page.getByRole("textbox", { name: "File name" }).fill("my-tool");
  await expect(page.getByRole("alert")).toContainText("is not a Python module name");
  await expect(page.getByRole("alert")).toContainText("my_tool.py");
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
});

test("Monaco is not part of the pages that do not edit code", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") scripts.push(res.url());
  });
  await page.goto("/tools");
  await expect(page.getByRole("heading", { level: 1, name: "Tools" })).toBeVisible();
  const bodies = await Promise.all(scripts.map(async (url) => (await (await page.request.get(url)).text()).includes("monaco")));
  expect(bodies.some(Boolean)).toBe(false);
});

test("a file is renamed and deleted from the editor, the deletion confirmed by name", async ({ page }) => {
  await openNewFile(page, "scratchpad");
  await page.getByRole("button", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename scratchpad.py" });
  await rename.getByLabel("New name").fill("scratch-pad.py");
  await expect(rename.getByRole("alert")).toContainText("scratch_pad.py");
  await rename.getByLabel("New name").fill("scratch_notes.py");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(page).toHaveURL(/\/tools\/scratch_notes\.py$/);
  expect(fs.existsSync(path.join(tree, "scratch_notes.py"))).toBe(true);
  expect(fs.existsSync(path.join(tree, "scratchpad.py"))).toBe(false);

  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete scratch_notes.py?" });
  await expect(confirm).toContainText("scratch_notes__hello");
  await expect(confirm).toContainText("No agent uses it.");
  await confirm.getByRole("button", { name: "Delete scratch_notes.py" }).click();
  await expect(page).toHaveURL(/\/tools$/);
  expect(fs.existsSync(path.join(tree, "scratch_notes.py"))).toBe(false);
});
