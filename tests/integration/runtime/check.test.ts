// A module-shaped file whose check() answers False (R-module-check) through the real tool host, sources and loop:
// the studio's catalog marks it not offered with the host's reason, and a run does not show it to the model.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listSources } from "@/server/catalog/sources";
import { offeredTools, text } from "@/tests/support/loopback-model";
import { dataOf, studio, type Studio } from "./setup";

const ECHO = `def echo(text: str) -> str:
    """Say it back."""
    return text
`;

const gated = (answer: boolean) => `ANSWER = ${answer ? "True" : "False"}

SCHEMA = {"name": "gated", "description": "Talk to the daemon.", "parameters": {"type": "object", "properties": {}}}


def check():
    return ANSWER


async def execute(args, ctx):
    return "the daemon answered"
`;

let s: Studio;

/** Rewrite the file with another answer; a new mtime, so the host re-imports it and asks the new check(). */
function answer(value: boolean) {
  const file = path.join(s.tree, "gated.py");
  fs.writeFileSync(file, gated(value));
  const later = new Date(Date.now() + 5_000);
  fs.utimesSync(file, later, later);
}

beforeAll(async () => {
  s = await studio("check", { "box.py": ECHO, "gated.py": gated(true) });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

describe("a module whose check() answers False", () => {
  it("is listed as not offered, with the host's reason and no error", async () => {
    answer(false);
    const { sources } = await listSources(s.tree);
    const source = sources.find((x) => x.entry === "tools/gated.py")!;
    expect(source).toMatchObject({ offered: false, errors: [] });
    expect(source.unavailable).toContain("check() answered False, so gated is not offered");
    expect(sources.find((x) => x.entry === "tools/box.py")).toMatchObject({ offered: true, unavailable: null });
  });

  it("is left out of a run's model view, and the run says why", async () => {
    answer(true);
    const agent = await s.agent({ tools: [{ entry: "tools/box.py" }, { entry: "tools/gated.py" }] });
    s.model.reply(text("Offered both."));
    const before = dataOf(await s.events(await s.run(agent)), "run_started")[0]!;
    expect(before.tools.map((t) => t.name)).toEqual(["box__echo", "gated"]);

    answer(false);
    s.model.reply(text("Only the echo."));
    const runId = await s.run(agent);
    expect(offeredTools(s.model.requests.at(-1)!)).toEqual(["box__echo"]);
    const started = dataOf(await s.events(runId), "run_started")[0]!;
    expect(started.tools.map((t) => t.name)).toEqual(["box__echo"]);
    // Kept in the run, so a later turn can offer it once check() says yes (R-check-turn).
    expect(started.operations.map((op) => op.name)).toEqual(["box__echo", "gated"]);
    expect(started.problems.join(" ")).toContain("check() answered False");
  });
});
