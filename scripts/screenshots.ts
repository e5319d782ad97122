// `npm run screenshots`: every page of a new studio, light and dark, as PNGs in screenshots/, so a reviewer sees the
// whole product at once (R-theme-screenshots). Edit PAGES when a page is added outside app/settings/.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type APIRequestContext, type Page } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../tests/e2e/support/browser";
import { startStudio, type Studio } from "../tests/e2e/support/studio-process";
import { call, startLoopbackModel, text, type LoopbackModel } from "../tests/support/loopback-model";

const OUT = path.resolve("screenshots");
const LIMIT_MS = 5 * 60_000;
const OWNER = { name: "Ada Owner", email: "owner@quiver.test", password: "screenshots password, long enough" };
const THEMES = ["light", "dark"] as const;
const VIEWPORT = { width: 1440, height: 900 };
/** Tall enough for a long form, short of the API reference's whole length. */
const MAX_HEIGHT = 3_000;

/** `ready` waits for what the page loads late; `open` opens a dialog, for the shots of what floats over a page. */
type Shot = { name: string; path: string; ready?: (page: Page) => Promise<unknown>; open?: string };

/** Every settings page there is, read from the routes, so a new one is photographed without an edit here. */
function settingsPages(): Shot[] {
  return fs
    .readdirSync("app/settings", { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join("app/settings", entry.name, "page.tsx")))
    .map((entry) => ({ name: `settings-${entry.name}`, path: `/settings/${entry.name}` }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function pages({ agentId, runId, waitingRunId }: Seeded): Shot[] {
  return [
    { name: "home", path: "/" },
    { name: "tools", path: "/tools" },
    { name: "tool-file", path: "/tools/notes.py", ready: (page) => page.locator(".monaco-editor .view-lines").first().waitFor({ timeout: 20_000 }) },
    { name: "agents", path: "/agents" },
    { name: "agent", path: `/agents/${agentId}` },
    { name: "agent-add-source", path: `/agents/${agentId}`, open: "Add a source" },
    { name: "playground", path: `/agents/${agentId}/run?run=${runId}` },
    { name: "runs", path: "/runs" },
    { name: "run", path: `/runs/${runId}` },
    { name: "run-waiting", path: `/runs/${waitingRunId}` },
    ...settingsPages(),
    { name: "settings-secrets-new", path: "/settings/secrets", open: "New secret" },
    { name: "api-docs", path: "/api-docs" },
  ];
}

function buildIfNeeded() {
  if (fs.existsSync(path.join(".next", "BUILD_ID"))) return;
  console.log("No production build yet: building it (next build)…");
  const built = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, timeout: 10 * 60_000 });
  if (built.status !== 0) throw new Error("next build failed; its output is above.");
}

/** A tRPC call as the studio's own pages make it (a POST naming the studio as its Origin), its answer's data. */
async function trpc<T>(request: APIRequestContext, studio: Studio, procedure: string, input: unknown): Promise<T> {
  const res = await request.post(`${studio.url}/api/trpc/${procedure}`, { headers: { origin: studio.url }, data: input });
  if (!res.ok()) throw new Error(`${procedure} answered ${res.status()}: ${await res.text()}`);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

async function shoot(page: Page, shot: Shot, theme: string, written: string[]) {
  await page.goto(shot.path, { waitUntil: "load" });
  await shot.ready?.(page);
  if (shot.open) {
    await page.getByRole("button", { name: shot.open, exact: true }).click();
    await page.getByRole("dialog").waitFor({ timeout: 10_000 });
  }
  // Queries answer after the first paint; a moment lets their rows arrive (a live page never goes network-idle).
  await page.waitForTimeout(1_200);
  await fitToContent(page);
  const file = path.join(OUT, `${shot.name}-${theme}.png`);
  await page.screenshot({ path: file });
  written.push(path.relative(process.cwd(), file));
  await page.setViewportSize(VIEWPORT);
}

/**
 * Most pages scroll inside a pane of a screen-high frame, which a full-page shot would cut at the screen's foot: the
 * window grows by what the longest pane hides instead, so the pane shows whole.
 */
async function fitToContent(page: Page) {
  const hidden = await page.evaluate(() => {
    let most = document.documentElement.scrollHeight - window.innerHeight;
    for (const el of document.querySelectorAll("main *")) {
      if (/auto|scroll/.test(getComputedStyle(el).overflowY)) most = Math.max(most, el.scrollHeight - el.clientHeight);
    }
    return most;
  });
  if (hidden <= 0) return;
  await page.setViewportSize({ width: VIEWPORT.width, height: Math.min(MAX_HEIGHT, VIEWPORT.height + hidden) });
  await page.waitForTimeout(300);
}

type Seeded = { agentId: string; runId: string; waitingRunId: string };

async function settled(request: APIRequestContext, studio: Studio, runId: string) {
  for (let tries = 0; tries < 100; tries++) {
    const { run } = await trpc<{ run: { status: string } }>(request, studio, "runs.get", { runId });
    if (run.status !== "running" && run.status !== "queued") return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * An agent with a tool it may use unasked and one finished run of it that used the tool; a second agent that asks
 * first, its run waiting on the approval card.
 */
async function seed(request: APIRequestContext, studio: Studio, model: LoopbackModel): Promise<Seeded> {
  await trpc(request, studio, "secrets.create", { name: "OPENAI_API_KEY", value: "sk-screenshots-not-a-real-key", description: "The key the example agent would pay with." });
  const { id: agentId } = await trpc<{ id: string }>(request, studio, "agents.create", {
    declaration: {
      name: "Note keeper",
      description: "Keeps short notes by subject and reads them back.",
      instructions: "Keep the notes you are asked to keep, and say what you wrote.",
      model: { provider: "openai-compatible", model: "scripted", base_url: model.url },
      tools: [{ entry: "system:filesystem#write_file,read_file", settings: { root: "notes" }, permissions: { write_file: "ALLOW" } }],
    },
  });
  model.reply(call("write_file", { path: "groceries.txt", content: "Milk, eggs, bread." }), text("I wrote your groceries to groceries.txt."));
  const { runId } = await trpc<{ runId: string }>(request, studio, "runs.start", { agentId, message: "Note down my groceries: milk, eggs, bread." });
  await settled(request, studio, runId);
  const careful = await trpc<{ id: string }>(request, studio, "agents.create", {
    declaration: {
      name: "Careful scribe",
      description: "Writes files, asking first.",
      instructions: "Write what you are asked to write.",
      model: { provider: "openai-compatible", model: "scripted", base_url: model.url },
      tools: [{ entry: "system:filesystem#write_file", settings: { root: "scribe" }, permissions: { write_file: "ASK" } }],
    },
  });
  model.reply(call("write_file", { path: "plan.md", content: "1. Look. 2. Write." }));
  const waiting = await trpc<{ runId: string }>(request, studio, "runs.start", { agentId: careful.id, message: "Write my plan to plan.md." });
  await settled(request, studio, waiting.runId);
  return { agentId, runId, waitingRunId: waiting.runId };
}

async function main() {
  buildIfNeeded();
  fs.mkdirSync(OUT, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-screenshots-"));
  // A copy of the studio's own tree, inside a folder that stands for a checkout (hooks and dependency files beside it).
  const tools = path.join(scratch, "checkout", "tools");
  fs.cpSync("tools", tools, { recursive: true, filter: (src) => !src.includes("__pycache__") });
  const model = await startLoopbackModel();
  const studio = await startStudio({ QUIVER_DATA_DIR: path.join(scratch, "data"), QUIVER_TOOLS_DIR: tools, DATABASE_URL: "" });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  const stop = async () => {
    await browser.close().catch(() => undefined);
    await studio.stop();
    await model.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  const timer = setTimeout(() => {
    console.error(`Screenshots took longer than ${LIMIT_MS / 60_000} minutes; stopping.`);
    void stop().finally(() => process.exit(1));
  }, LIMIT_MS);
  const written: string[] = [];
  try {
    const context = await browser.newContext({ baseURL: studio.url, viewport: VIEWPORT });
    const page = await context.newPage();
    // Signed out, the device decides (R-theme-first-paint): these two are shot under each colour scheme.
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await shoot(page, { name: "setup", path: "/setup" }, theme, written);
    }
    await trpc(context.request, studio, "account.createOwner", OWNER);
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await shoot(page, { name: "sign-in", path: "/sign-in" }, theme, written);
    }
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("navigation", { name: "Sections" }).waitFor();
    const seeded = await seed(context.request, studio, model);
    // Signed in, the person's own choice decides, as the account menu sets it (R-theme-per-user).
    for (const theme of THEMES) {
      await trpc(context.request, studio, "account.setTheme", { theme });
      for (const shot of pages(seeded)) await shoot(page, shot, theme, written);
    }
    await trpc(context.request, studio, "account.setTheme", { theme: "system" });
  } finally {
    clearTimeout(timer);
    await stop();
  }
  console.log(`${written.length} screenshots in ${path.relative(process.cwd(), OUT)}/:`);
  for (const file of written) console.log(`  ${file}`);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
