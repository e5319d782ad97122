// The theme as a person meets it: the account menu's System / Light / Dark repaints the page and the code editor at
// once, by mouse or by arrow keys, is there again after a reload and in a new browser for the same person (in the
// first HTML, before any script), and "system" follows the device, as signed-out pages always do.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { adminState, signIn } from "./support/accounts";
import { expectEditorReady } from "./support/monaco";
import { ownOrigin } from "./support/origin";

const BASE = `http://127.0.0.1:${process.env.QUIVER_E2E_PORT}`;
const PERSON = { name: "Theo Themer", email: "theme-dev@quiver.test", password: "a theme person's password", role: "developer" };
const WHITE = "rgb(255, 255, 255)";

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const editorTheme = (page: Page) =>
  page.locator(".monaco-editor").first().evaluate((el) => (el.classList.contains("vs-dark") ? "vs-dark" : el.classList.contains("vs") ? "vs" : "other"));

async function personPage(browser: Browser, colorScheme: "light" | "dark"): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, colorScheme, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, PERSON);
  return page;
}

test.beforeAll(async ({ browser }) => {
  // The admin's browser state makes a person of its own, so the admin's theme stays as other tests expect it.
  const admin = await browser.newContext({ baseURL: BASE, storageState: adminState });
  const made = await admin.request.post("/api/trpc/users.create", { headers: ownOrigin, data: PERSON });
  if (!made.ok()) expect(await made.text()).toContain("already");
  await admin.close();
});

test("R-theme-choice: Dark repaints the page and Monaco at once, and R-theme-per-user: survives a reload and a new browser", async ({ browser }) => {
  const page = await personPage(browser, "light");
  await page.goto("/tools/notes.py");
  await expectEditorReady(page);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
  expect(await background(page)).toBe(WHITE);
  expect(await editorTheme(page)).toBe("vs");

  const menu = page.getByRole("group", { name: "Theme" });
  await menu.getByRole("radio", { name: "Dark" }).check();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect.poll(() => background(page)).not.toBe(WHITE);
  await expect.poll(() => editorTheme(page)).toBe("vs-dark");

  // R-theme-first-paint: the next page's HTML already says dark, and so does a reload's.
  await expect.poll(async () => (await page.request.get("/runs")).text()).toContain('data-theme="dark"');
  await page.reload();
  await expectEditorReady(page);
  await expect(menu.getByRole("radio", { name: "Dark" })).toBeChecked();
  expect(await background(page)).not.toBe(WHITE);
  expect(await editorTheme(page)).toBe("vs-dark");

  // Another browser on a light device, the same person: dark from the first HTML on.
  const other = await personPage(browser, "light");
  const first = await other.request.get("/tools/notes.py");
  expect(await first.text()).toContain('data-theme="dark"');
  await other.goto("/tools/notes.py");
  await expectEditorReady(other);
  expect(await background(other)).not.toBe(WHITE);
  expect(await editorTheme(other)).toBe("vs-dark");

  // The keyboard: the chosen radio takes focus, an arrow moves to the next one and applies it.
  const dark = other.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Dark" });
  await dark.focus();
  await other.keyboard.press("ArrowLeft");
  await expect(other.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Light" })).toBeChecked();
  await expect(other.locator("html")).toHaveAttribute("data-theme", "light");
  await expect.poll(() => background(other)).toBe(WHITE);
  await expect.poll(() => editorTheme(other)).toBe("vs");
  await other.context().close();
  await page.context().close();
});

test("R-theme-first-paint: System follows the device, live, in the page and in Monaco", async ({ browser }) => {
  const page = await personPage(browser, "light");
  await page.goto("/tools/notes.py");
  await expectEditorReady(page);
  await page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "System" }).check();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
  await expect.poll(() => background(page)).toBe(WHITE);
  await expect.poll(() => editorTheme(page)).toBe("vs");

  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => background(page)).not.toBe(WHITE);
  await expect.poll(() => editorTheme(page)).toBe("vs-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => background(page)).toBe(WHITE);
  await expect.poll(() => editorTheme(page)).toBe("vs");
  await page.context().close();
});

test("R-theme-first-paint: a signed-out page follows the device", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE, colorScheme: "dark", storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
  expect(await background(page)).not.toBe(WHITE);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => background(page)).toBe(WHITE);
  await context.close();
});
