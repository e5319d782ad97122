// A tree tool's cut result in a run (R-cut-run, R-cut-confined): the tool host keeps it in its working folder, the
// studio moves it into .results/<run>/ of the agent's working folder, and the path the note names is one the
// agent's own read_file opens, through the real loop, tool host and filesystem source.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, text, toolMessages, type RecordedRequest } from "@/tests/support/loopback-model";
import { dataOf, studio, type Studio } from "./setup";

const LONG = `"""A tool with a long answer."""


def lines(count: int) -> str:
    """Numbered lines, one per line.

    Args:
        count: How many.
    """
    return "\\n".join(f"line {i:05d}" for i in range(1, count + 1))
`;

let s: Studio;
let inbox: string;

beforeAll(async () => {
  s = await studio("result-cut", { "long.py": LONG });
  inbox = path.join(s.dataDir, "workspace", "inbox");
});
afterAll(async () => s?.close());

const agentWithFiles = () =>
  s.agent({ tools: [{ entry: "tools/long.py#long__lines" }, { entry: "system:filesystem#read_file", settings: { root: "inbox" } }] });

/** The path the last tool result's note names, as the model reads it. */
function notedPath(request: RecordedRequest): string {
  const said = toolMessages(request).at(-1)!.content;
  return /The whole of it is in (\S+) \(in the agent's working folder\)/.exec(said)?.[1] ?? "no path in the note";
}

async function results(runId: string) {
  return dataOf(await s.events(runId), "tool_result");
}

describe("a cut result in a run", () => {
  it("R-cut-run: read_file of the path the note names returns the part the cut left out", async () => {
    const agent = await agentWithFiles();
    s.model.reply(call("long__lines", { count: 3_000 }), (request) => call("read_file", { path: notedPath(request), start_line: 1_500, max_lines: 2 }), text("done"));
    const runId = await s.run(agent);
    const [cut, read] = await results(runId);
    expect(cut!.truncated).toMatch(new RegExp(`^\\.results/${runId}/tool-[0-9a-f-]{36}\\.txt$`));
    expect(cut!.text).toContain(`The whole of it is in ${cut!.truncated} (in the agent's working folder); read that file for the part in between`);
    expect(cut!.text).not.toContain("line 01500");
    expect(cut!.text).not.toContain("tool host's working folder");
    expect(read).toMatchObject({ operation: "read_file", outcome: "ok" });
    expect(read!.text).toBe(" 1500\tline 01500\n 1501\tline 01501\n(lines 1500–1501 of 3,000; call again with start_line=1502 for more)".replace(/^ /gm, "  "));
    expect(fs.readFileSync(path.join(inbox, cut!.truncated!), "utf8").split("\n")).toHaveLength(3_000);
  });

  it("R-result-output-cap: a built-in's result over the cap is kept in the same folder, where read_file reads it", async () => {
    fs.mkdirSync(inbox, { recursive: true });
    fs.writeFileSync(path.join(inbox, "big.txt"), Array.from({ length: 500 }, (_, i) => `row ${i + 1}`).join("\n"));
    const agent = await s.agent({ tools: [{ entry: "system:filesystem#read_file", settings: { root: "inbox" } }], policy: { output_cap: 1_000 } });
    s.model.reply(call("read_file", { path: "big.txt" }), (request) => call("read_file", { path: notedPath(request), start_line: 250, max_lines: 1 }), text("done"));
    const runId = await s.run(agent);
    const [cut, read] = await results(runId);
    expect(cut!.truncated).toMatch(new RegExp(`^\\.results/${runId}/tool-[0-9a-f-]{36}\\.txt$`));
    expect(cut!.text).not.toContain("row 250\n");
    expect(read).toMatchObject({ outcome: "ok" });
    // The kept text is the first read's numbered lines, so the second read numbers them again.
    expect(read!.text).toContain("\t   250\trow 250");
  });

  it("R-cut-confined: a .results the agent's tools made a link is not followed, and the note says the rest could not be kept", async () => {
    const outside = path.join(s.dir, "outside");
    fs.mkdirSync(outside, { recursive: true });
    fs.mkdirSync(inbox, { recursive: true });
    fs.rmSync(path.join(inbox, ".results"), { recursive: true, force: true });
    fs.symlinkSync(outside, path.join(inbox, ".results"));
    const agent = await agentWithFiles();
    s.model.reply(call("long__lines", { count: 3_000 }), text("done"));
    const [cut] = await results(await s.run(agent));
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(cut!.text).toContain("The whole of it could not be kept where your file tools can read it (.results is a symbolic link, which is not followed) ...]");
    expect(cut!.text.startsWith("line 00001\n")).toBe(true);
    fs.unlinkSync(path.join(inbox, ".results"));
  });
});
