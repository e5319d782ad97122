// What the chaos test's runs do: three tools that leave a line per effect in a folder (a manual one that appends, two
// idempotent ones that apply once per key, one of them Ask me), each call taking the while its arguments say, and the
// loopback model's script that asks call k of run i for PLAN[k] with that run's planned while. Edit with the test.
import fs from "node:fs";
import { call, text, type RecordedRequest, type ScriptedReply } from "@/tests/support/loopback-model";

const ARGS = `        folder: Where.\n        tag: The line.\n        seconds: How long it takes.\n`;

/** Each call's effect is a line carrying its tag; a kill during its while leaves the effect without a result. */
export const LEDGER = `"""Writes to a ledger."""\n\nimport os\nimport time\n\n\ndef append(folder: str, tag: str, seconds: float) -> str:\n    """Append a line.\n\n    Args:\n${ARGS}    """\n    with open(os.path.join(folder, "manual.txt"), "a") as f:\n        f.write(tag + "\\n")\n    time.sleep(seconds)\n    return "appended"\n`;

/** The idempotent ones note every attempt, and apply the effect once per key (an exclusive marker file). */
const onceBody = (file: string) =>
  `    with open(os.path.join(folder, "${file}.calls"), "a") as f:\n        f.write(str(ctx.idempotency_key) + "\\n")\n    try:\n        fd = os.open(os.path.join(folder, "${file}-" + str(ctx.idempotency_key)), os.O_CREAT | os.O_EXCL | os.O_WRONLY)\n        os.close(fd)\n        with open(os.path.join(folder, "${file}.txt"), "a") as f:\n            f.write(str(ctx.idempotency_key) + " " + tag + "\\n")\n    except FileExistsError:\n        pass\n    time.sleep(seconds)\n`;

const onceTool = (doc: string, name: string, file: string, answer: string) =>
  `"""${doc}"""\n\nimport os\nimport time\nfrom quiver import Context, tool\n\n\n@tool(replay="idempotent")\ndef ${name}(folder: str, tag: str, seconds: float, ctx: Context) -> str:\n    """${name[0]!.toUpperCase()}${name.slice(1)}.\n\n    Args:\n${ARGS}    """\n${onceBody(file)}    return "${answer}"\n`;

export const PAYMENTS = onceTool("Pays once per key.", "pay", "pay", "paid");
export const VAULT = onceTool("Opens, once per key, when someone says so.", "unlock", "vault", "unlocked");
const PLAN = ["ledger__append", "payments__pay", "vault__unlock", "payments__pay", "ledger__append"];

/** When run i starts after the chaos begins, and how long each of its calls takes. */
export type Planned = { at: number; seconds: number[] };

/**
 * Starts one run every `everyMs` from `firstMs`. The keyed calls take between 0.3 and 2.5 seconds, so that runs are
 * moving until the kills stop and no lull leaves a kill nothing to interrupt; those of runs starting after
 * `quickAfterMs` take at most 1.2 seconds, so that what is left when the kills stop ends soon after. The manual
 * calls take 0.2 to 0.6 seconds: a kill still lands in some of them, but most runs get past them to their approval.
 */
export function schedule(rng: () => number, o: { runs: number; calls: number; firstMs: number; everyMs: number; quickAfterMs: number }): Planned[] {
  return Array.from({ length: o.runs }, (_, i) => {
    const at = o.firstMs + i * o.everyMs;
    const most = at > o.quickAfterMs ? 9 : 22;
    const seconds = Array.from({ length: o.calls }, (_, k) => (PLAN[k]!.startsWith("ledger__") ? Math.round(2 + rng() * 4) : Math.round(3 + rng() * most)) / 10);
    return { at, seconds };
  });
}

/** The model: call k of run i is PLAN[k] tagged r<i>-c<k>, read from the conversation, so a replayed turn asks the same. */
export function script(folder: string, plan: Planned[]) {
  return (request: RecordedRequest): ScriptedReply => {
    const messages = request.body.messages;
    const first = JSON.stringify(messages.find((m) => m.role === "user")?.content ?? "");
    const run = Number(/Run (\d+)/.exec(first)?.[1] ?? -1);
    const made = messages.filter((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0).length;
    if (made >= PLAN.length) return text(`Run ${run} finished.`) as ScriptedReply;
    return call(PLAN[made]!, { folder, tag: `r${run}-c${made}`, seconds: plan[run]?.seconds[made] ?? 0.3 });
  };
}

/** A seeded generator (mulberry32), so a failing sequence of kills can be run again. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const countBy = (items: string[]) => items.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
