import { describe, expect, it } from "vitest";
import { parseRun, RUNS_HEADER, splitLog } from "./deps-log";

const TRANSCRIPT = "installing requirements.txt from /co (sha256 ab)\n$ python -m pip install -r requirements.txt\nSuccessfully installed tinypkg-0.1\n== installed\n\n";

describe("the dependency log", () => {
  it("R-deps-log: splits the last install's transcript from the run lines, newest last", () => {
    const log = splitLog(
      `${TRANSCRIPT}${RUNS_HEADER}\n2026-12-01T13:00:00Z installed in 3.2 s\n2026-12-01T13:05:00Z unchanged in 0.0 s: requirements.txt (sha256 ab12)\n`,
    );
    expect(log.finished).toBe(true);
    expect(log.transcript).toBe(TRANSCRIPT);
    expect(log.runs.map((run) => [run.status, run.seconds, run.detail])).toEqual([
      ["installed", 3.2, null],
      ["unchanged", 0, "requirements.txt (sha256 ab12)"],
    ]);
    expect(log.runs[1]!.at).toBe("2026-12-01T13:05:00Z");
  });

  it("R-deps-log: a log still being written (an install under way) has its transcript and no runs yet", () => {
    expect(splitLog("$ python -m pip install -r requirements.txt\nCollecting x\n")).toEqual({
      transcript: "$ python -m pip install -r requirements.txt\nCollecting x\n",
      runs: [],
      finished: false,
    });
  });

  it("R-deps-log: a log of quiet runs only has an empty transcript", () => {
    const log = splitLog(`${RUNS_HEADER}\n2026-12-01T13:00:00Z none in 0.0 s\n`);
    expect([log.transcript, log.runs.length, log.finished]).toEqual(["", 1, true]);
  });

  it("R-deps-log: a failed run keeps pip's error on its line", () => {
    const run = parseRun("2026-12-01T13:00:00Z failed in 0.6 s: `pip install -r requirements.txt` exited with 1 (ERROR: No matching distribution found for nope); read the log for the rest");
    expect(run?.status).toBe("failed");
    expect(run?.detail).toMatch(/^`pip install -r requirements\.txt` exited with 1 \(ERROR: No matching distribution/);
    expect(parseRun("Collecting nope")).toBeNull();
  });
});
