// One decision a running tool asked through ctx.io, as a card inside its tool's card (R-tool-io-cards): the plan,
// the command and why, the path and what will be written, or the question; its buttons while it waits, then who
// decided what. `runId` null: a read-only trace, without buttons.
import { FileText, ListChecks, MessageCircleQuestion, SquareTerminal } from "lucide-react";
import { IoCardActions } from "./io-card-actions";
import { QuestionBox } from "./question-box";
import type { Call } from "./trace";

const preClass = "max-h-60 overflow-auto whitespace-pre-wrap break-words rounded bg-white/70 px-2 py-1.5 font-mono text-xs text-zinc-800 dark:bg-zinc-900 dark:text-zinc-200";

const HEADINGS = { plan: "Plan for your approval", shell: "Run a shell command?", write: "Write a file?", ask: "The tool asks" } as const;
const ICONS = { plan: ListChecks, shell: SquareTerminal, write: FileText, ask: MessageCircleQuestion } as const;

/** What the decision was, in the card's own words. */
function decided(call: Call): string {
  const kind = call.io?.kind;
  const decision = call.approval?.decision;
  if (kind === "write") return decision === "always" ? "Allowed for this path for the rest of the run" : decision === "once" ? "Allowed once" : "Denied";
  if (kind === "plan") return decision === "deny" ? "Rejected" : "Approved";
  return decision === "deny" ? "Denied" : "Allowed";
}

const who = (by: { name: string | null } | null | undefined) => (by?.name ? ` by ${by.name}` : "");

function Body({ call }: { call: Call }) {
  const io = call.io!;
  if (io.kind === "plan") return <pre aria-label="Plan" className={preClass}>{io.plan}</pre>;
  if (io.kind === "shell") {
    return (
      <>
        <pre aria-label="Command" className={preClass}>{io.command}</pre>
        {io.reason ? <p className="text-xs text-zinc-700 dark:text-zinc-300">Why: {io.reason}</p> : null}
      </>
    );
  }
  if (io.kind === "write") {
    return (
      <>
        <p aria-label="Path" className="break-all font-mono text-xs text-zinc-900 dark:text-zinc-100">{io.path}</p>
        {io.summary ? <p className="text-xs text-zinc-700 dark:text-zinc-300">{io.summary}</p> : null}
      </>
    );
  }
  return <p className="whitespace-pre-wrap text-sm text-zinc-900 dark:text-zinc-100">{call.question?.question}</p>;
}

export function IoRequestCard({ call, runId }: { call: Call; runId: string | null }) {
  const io = call.io!;
  const Icon = ICONS[io.kind];
  const waiting = call.state === "approval" || call.state === "question";
  const answered = io.kind === "ask" ? call.question?.answered : call.approval?.decision != null;
  return (
    <section
      aria-label={`${HEADINGS[io.kind]} (asked by the tool)`}
      className={`flex flex-col gap-2 rounded-md px-3 py-2 ${waiting ? "bg-amber-50 dark:bg-amber-950/40" : "bg-zinc-50 dark:bg-zinc-900"}`}
    >
      <p className="flex items-center gap-1.5 text-xs font-medium text-zinc-700 dark:text-zinc-300">
        <Icon aria-hidden className="h-3.5 w-3.5" /> {HEADINGS[io.kind]}
      </p>
      <Body call={call} />
      {answered ? (
        <p role="status" className="text-xs text-zinc-700 dark:text-zinc-300">
          {io.kind === "ask" ? (call.question?.answer === null ? "Skipped" : <>Answered “{call.question?.answer}”</>) : decided(call)}
          {who(io.kind === "ask" ? call.question?.by : call.approval?.by)}.
          {call.approval?.note ? <> Note: “{call.approval.note}”</> : null}
        </p>
      ) : !waiting ? (
        <p role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
          {io.kind === "ask" ? "Nobody answered." : "Nobody answered, so the tool was told no."}
        </p>
      ) : !runId ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Not decided.</p>
      ) : io.kind === "ask" ? (
        <QuestionBox runId={runId} callId={call.callId} choices={call.question?.choices ?? []} />
      ) : (
        <IoCardActions runId={runId} callId={call.callId} kind={io.kind} />
      )}
    </section>
  );
}
