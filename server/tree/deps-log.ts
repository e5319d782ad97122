// Reading the dependency log the host writes (R-deps-log): the last install's transcript, then one line per run,
// newest last, under a fixed header. Pure, so the parsing is tested on its own; the format is deps_log.py's.

export const RUNS_HEADER = "== runs, newest last ==";

export const RUN_STATUSES = ["installed", "unchanged", "failed", "none"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One run as its line says it: when (UTC), how it ended, how long, and the error or what was unchanged. */
export type DepsRun = { at: string; status: RunStatus; seconds: number; detail: string | null; line: string };

export type DepsLog = {
  transcript: string;
  runs: DepsRun[];
  /** False while an install writes its transcript (or when one stopped before writing its runs). */
  finished: boolean;
};

const LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) (installed|unchanged|failed|none) in (\d+(?:\.\d+)?) s(?:: (.*))?$/;

export function parseRun(line: string): DepsRun | null {
  const match = LINE.exec(line.trim());
  if (!match) return null;
  return { at: match[1]!, status: match[2] as RunStatus, seconds: Number(match[3]), detail: match[4] ?? null, line: line.trim() };
}

export function splitLog(text: string): DepsLog {
  let transcript: string;
  let rest: string;
  if (text.startsWith(`${RUNS_HEADER}\n`)) {
    [transcript, rest] = ["", text.slice(RUNS_HEADER.length + 1)];
  } else {
    const at = text.lastIndexOf(`\n${RUNS_HEADER}\n`);
    if (at < 0) return { transcript: text, runs: [], finished: false };
    [transcript, rest] = [text.slice(0, at + 1), text.slice(at + RUNS_HEADER.length + 2)];
  }
  const runs = rest.split("\n").flatMap((line) => parseRun(line) ?? []);
  return { transcript, runs, finished: true };
}
