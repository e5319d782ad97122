// The project files beside the tree, as a developer meets them on the Tools page (R-deps-edit): requirements.txt opened
// from Project files, saved at the checkout's root (never in tools/), the install it starts shown with its status and
// log (R-deps-status), a quiet run keeping the transcript (R-deps-log), tools/requirements.txt named as not a
// dependency file (R-deps-root), and hooks/tools.py saved beside the tree.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectEditorReady, replaceEditorText } from "./support/monaco";

const tree = process.env.QUIVER_E2E_TOOLS!;
const root = path.dirname(tree);

const projectFiles = (page: Page) => page.getByRole("region", { name: "Project files" });
const deps = (page: Page) => page.getByRole("region", { name: "Dependencies" });

async function openProjectFile(page: Page, name: string) {
  await page.goto("/tools/notes.py");
  await expectEditorReady(page);
  await projectFiles(page).getByRole("button", { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tools/${encodeURIComponent(name)}$`));
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
}

async function save(page: Page) {
  await page.keyboard.press("ControlOrMeta+S");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
}

test.afterAll(() => {
  for (const name of ["requirements.txt", "hooks", "setup.sh"]) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  fs.rmSync(path.join(tree, "requirements.txt"), { force: true });
});

test("R-deps-status: the studio runs the install when it starts, so before any save /tools says there is nothing to install", async ({ page }) => {
  await page.goto("/tools");
  // "not installed yet" would mean no run at start; a tree with no dependency files ends its run with "none".
  await expect(page.getByRole("status").filter({ hasText: "No dependency files" })).toBeVisible({ timeout: 30_000 });
});

test("R-deps-status: requirements.txt is edited from the Tools page, saved at the root, and its install shows with the log", async ({ page }) => {
  await openProjectFile(page, "requirements.txt");
  await replaceEditorText(page, "# the tools need nothing from PyPI yet\n");
  await save(page);
  expect(fs.readFileSync(path.join(root, "requirements.txt"), "utf8")).toBe("# the tools need nothing from PyPI yet\n");
  expect(fs.existsSync(path.join(tree, "requirements.txt"))).toBe(false);

  await expect(deps(page).getByTestId("deps-state")).toContainText("Dependencies installed", { timeout: 60_000 });
  const log = deps(page).getByLabel("Dependency log");
  await expect(log).toContainText("-r requirements.txt");
  await expect(log).toContainText(/ installed in [\d.]+ s/);

  // R-deps-log: Install now with nothing changed runs no pip, and the transcript stays readable above its line.
  await deps(page).getByRole("button", { name: "Install now" }).click();
  await expect(deps(page).getByTestId("deps-state")).toContainText("Dependencies unchanged since the last install", { timeout: 30_000 });
  await expect(log).toContainText("-r requirements.txt");
  await expect(log).toContainText(/ unchanged in [\d.]+ s: requirements\.txt/);
  await page.screenshot({ path: test.info().outputPath("requirements.png") });
});

test("R-deps-status: a failed install says pip's own line where the file is edited, and on /tools", async ({ page }) => {
  await openProjectFile(page, "requirements.txt");
  await replaceEditorText(page, "--no-index\nnot-a-package-anywhere-quiver\n");
  await save(page);
  const state = deps(page).getByTestId("deps-state");
  await expect(state).toContainText("Dependencies failed to install", { timeout: 60_000 });
  await expect(state).toContainText("ERROR: No matching distribution found for not-a-package-anywhere-quiver");
  await page.screenshot({ path: test.info().outputPath("failed.png") });
  await page.goto("/tools");
  await expect(page.getByRole("status").filter({ hasText: "Dependencies failed to install" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("tools.png"), fullPage: true });
});

test("R-deps-root: a requirements.txt inside tools/ is named as not a dependency file, with where to move it", async ({ page }) => {
  fs.writeFileSync(path.join(tree, "requirements.txt"), "tinypkg\n");
  await page.goto("/tools");
  await expect(page.getByText(`tools/requirements.txt is not a dependency file: dependency files sit at the root of the checkout beside ${path.basename(tree)}/, so move it to ${root}/.`)).toBeVisible();
  fs.rmSync(path.join(tree, "requirements.txt"));
});

test("R-deps-edit: a project file changed on disk since it was opened is a conflict to merge, not overwritten", async ({ page }) => {
  fs.writeFileSync(path.join(root, "setup.sh"), "echo first\n");
  await openProjectFile(page, "setup.sh");
  await replaceEditorText(page, "echo mine\n");
  fs.writeFileSync(path.join(root, "setup.sh"), "echo theirs\n");
  await page.keyboard.press("ControlOrMeta+S");
  await expect(page.getByText(/changed on disk/).first()).toBeVisible();
  expect(fs.readFileSync(path.join(root, "setup.sh"), "utf8")).toBe("echo theirs\n");
});

test("R-deps-edit: hooks/tools.py opens from Project files and is saved into hooks/ beside the tree", async ({ page }) => {
  await openProjectFile(page, "hooks/tools.py");
  await expect(page.getByRole("region", { name: "Call hook" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Rename" })).toHaveCount(0);
  await replaceEditorText(page, "def check(call):\n    return None\n");
  await save(page);
  expect(fs.readFileSync(path.join(root, "hooks", "tools.py"), "utf8")).toBe("def check(call):\n    return None\n");
});
