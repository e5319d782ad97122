// One tool call in the conversation: what was called with which arguments, where it stands (a spinner while it
// runs; green ok, red failed, grey refused), the person's approval or answer, progress lines, and the result exactly
// as the model got it (masked by the server), and the calls the tool made through ctx.system, each a card of its own
// inside; a specialist's card links to its own run and holds that run's calls, decided from here (R-spec-approvals).
// `runId` null: a read-only trace, without buttons.
import { Loader2 } from "lucide-react";
import Link from "next/link";
import { ApprovalActions } from "./approval-actions";
import { CALL_STATES, formatDuration } from "./format";
import { IoRequestCard } from "./io-card";
import { QuestionBox } from "./question-box";
import { RecoveryBox } from "./recovery-box";
import type { Call } from "./trace";

const DECISIONS = { once: "Approved once", always: "Approved for the rest of this run", deny: "Denied" } as const;

const preClass = "max-h-72 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 px-2 py-1.5 font-mono text-xs text-zinc-800 dark:bg-zinc-900 dark:text-zinc-200";

function who(by: { name: string | null } | null): string {
  return by?.name ? ` by ${by.name}` : "";
}

/** `within`: the card sits inside another's, made by a tool through ctx.system, a program through quiver.sources, or a specialist's run. */
export function CallCard({ call, runId, calls, within }: { call: Call; runId: string | null; calls: Readonly<Record<string, Call>>; within?: "tool" | "program" | "specialist" }) {
  const state = CALL_STATES[call.state];
  const title = call.title ?? call.name;
  const waiting = call.state === "approval" || call.state === "question" || call.state === "recovery";
  // What the tool asked the person through ctx.io shows apart from the calls it made (R-tool-io-cards).
  const asked = call.children.filter((id) => calls[id]?.io);
  const made = call.children.filter((id) => !calls[id]?.io);
  // A compute_exec program's calls of the agent's sources (R-code-import) sit under it like a tool's ctx.system calls.
  const maker = call.specialist ? "specialist" : call.name === "compute_exec" ? "program" : "tool";
  return (
    <article
      aria-label={`Tool call: ${title}`}
      className={`rounded-lg border bg-white text-sm dark:bg-zinc-950 ${waiting ? "border-amber-300 dark:border-amber-800" : "border-zinc-200 dark:border-zinc-800"}`}
    >
      <header className="flex items-center gap-2 border-b border-zinc-100 px-3 py-2 dark:border-zinc-900">
        {call.state === "running" ? (
          <Loader2 aria-hidden className="h-3.5 w-3.5 animate-spin text-indigo-500" />
        ) : (
          <span aria-hidden className={`h-2 w-2 rounded-full ${state.dot}`} />
        )}
        <span className="font-medium">{title}</span>
        {call.title ? <span className="truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">{call.name}</span> : null}
        <span className="ml-auto flex shrink-0 items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
          <span role="status" className={call.state === "ok" ? "text-emerald-700 dark:text-emerald-400" : call.result && call.state !== "refused" ? "text-red-600" : ""}>
            {state.label}
          </span>
          {call.result ? <span>· {formatDuration(call.result.durationMs)}</span> : null}
          {call.result && call.result.attempts > 1 ? <span>· {call.result.attempts} attempts</span> : null}
        </span>
      </header>
      <div className="flex flex-col gap-2 px-3 py-2">
        {call.args && Object.keys(call.args).length > 0 ? (
          <div>
            <p className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">Arguments{call.repaired ? " (repaired from what the model wrote)" : ""}</p>
            <pre className={preClass}>{JSON.stringify(call.args, null, 2)}</pre>
          </div>
        ) : null}
        {call.approval ? (
          <div className={`rounded-md px-3 py-2 ${call.approval.decision ? "bg-zinc-50 dark:bg-zinc-900" : "bg-amber-50 dark:bg-amber-950/40"}`}>
            {call.approval.decision ? (
              <p className="text-xs text-zinc-700 dark:text-zinc-300">
                {DECISIONS[call.approval.decision]}
                {who(call.approval.by)}.
              </p>
            ) : (
              <>
                <p className="mb-2 text-xs text-amber-900 dark:text-amber-200">{call.approval.reason || "This operation asks you first."}</p>
                {runId ? (
                  <ApprovalActions runId={runId} callId={call.callId} title={title} grantable={call.approval.grantable} />
                ) : (
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">Not decided.</p>
                )}
              </>
            )}
          </div>
        ) : null}
        {call.recovery ? <RecoveryBox runId={runId} callId={call.callId} title={title} recovery={call.recovery} /> : null}
        {call.question ? (
          <div className={`rounded-md px-3 py-2 ${call.question.answered ? "bg-zinc-50 dark:bg-zinc-900" : "bg-amber-50 dark:bg-amber-950/40"}`}>
            <p className="mb-2 whitespace-pre-wrap text-sm text-zinc-900 dark:text-zinc-100">{call.question.question}</p>
            {call.question.answered ? (
              <p className="text-xs text-zinc-700 dark:text-zinc-300">
                {call.question.expired ? "Nobody answered in time, so the agent went on without an answer" : call.question.answer === null ? "Skipped" : <>Answered “{call.question.answer}”</>}
                {who(call.question.by)}.
              </p>
            ) : runId ? (
              <QuestionBox runId={runId} callId={call.callId} choices={call.question.choices} />
            ) : (
              <p className="text-xs text-zinc-500 dark:text-zinc-400">Not answered.</p>
            )}
          </div>
        ) : null}
        {call.progress.length > 0 ? (
          <ul aria-label="Progress" className="flex flex-col gap-0.5 text-xs text-zinc-600 dark:text-zinc-400">
            {call.progress.map((line, i) => (
              <li key={i} className="before:mr-1.5 before:text-zinc-400 before:content-['›']">
                {line}
              </li>
            ))}
          </ul>
        ) : null}
        {call.specialist ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            The agent works on this in a run of its own.{" "}
            <Link href={`/runs/${call.specialist.runId}`} className="text-accent dark:text-indigo-400 hover:underline">
              Open the specialist&rsquo;s run
            </Link>
          </p>
        ) : null}
        {asked.map((id) => (
          <IoRequestCard key={id} call={calls[id]!} runId={runId} />
        ))}
        {made.length > 0 ? (
          <section
            aria-label={maker === "specialist" ? "Calls the specialist made" : `Calls this ${maker} made`}
            className="flex flex-col gap-2 border-l-2 border-zinc-200 pl-3 dark:border-zinc-800"
          >
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              {maker === "specialist" ? "Called by the specialist in its run" : maker === "program" ? "Called by this program through quiver.sources" : "Called by this tool through ctx.system"}
            </p>
            {made.map((id) =>
              calls[id] ? <CallCard key={id} call={calls[id]} runId={runId} calls={calls} within={maker} /> : null,
            )}
          </section>
        ) : null}
        {call.result ? (
          <div>
            <p className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">
              {within === "specialist" ? "Result, as the specialist got it" : call.parent ? `Result, as the ${within === "program" ? "program" : "tool"} got it` : "Result, as the model got it"}{call.result.deduped ? " (repeated from an identical earlier call)" : ""}
            </p>
            <pre aria-label="Result" className={preClass}>
              {call.result.text || "(empty)"}
            </pre>
            {call.result.images.length > 0 ? (
              <div className="mt-2 flex flex-wrap gap-2">
                {call.result.images.map((image, i) => (
                  // eslint-disable-next-line @next/next/no-img-element -- a data URL from the tool, not a page asset
                  <img key={i} src={`data:${image.mimeType};base64,${image.data}`} alt={`Image ${i + 1} from ${title}`} className="max-h-40 rounded border border-zinc-200 dark:border-zinc-800" />
                ))}
              </div>
            ) : null}
            {call.result.truncated ? <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">Cut to fit; the whole result is kept at {call.result.truncated} in the agent’s working folder.</p> : null}
          </div>
        ) : null}
      </div>
    </article>
  );
}
