// What a tool tried by hand answered, as the model would read it: how it ended and how long it took, the progress
// lines it sent while it ran, its text, and its images as pictures.
import { errorSentence } from "@/components/trpc/errors";
import type { CallResult } from "@/server/host/protocol";
import type { TryRun } from "./try-run";

const OUTCOME: Record<CallResult["outcome"], string> = {
  ok: "Succeeded",
  refused: "Refused",
  failed: "Failed",
  transient: "Failed (worth retrying)",
  timeout: "Timed out",
};

/** Only the raster types a browser shows safely inline; anything else is named, not drawn. */
const PICTURE = /^image\/(png|jpeg|gif|webp)$/;

function headline(run: TryRun): { text: string; tone: string } {
  if (run.running) return { text: "Running…", tone: "text-zinc-600 dark:text-zinc-400" };
  if (run.stopped) return { text: "Stopped", tone: "text-zinc-600 dark:text-zinc-400" };
  if (run.error) return { text: "Could not run", tone: "text-red-600" };
  if (!run.result) return { text: "Ended without an answer", tone: "text-red-600" };
  const { outcome } = run.result;
  return { text: OUTCOME[outcome], tone: outcome === "ok" ? "text-emerald-700 dark:text-emerald-400" : outcome === "refused" ? "text-zinc-600" : "text-red-600" };
}

export function TryResult({ run, tool }: { run: TryRun; tool: string }) {
  const { text, tone } = headline(run);
  const parts = run.result?.content ?? [];
  const words = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  return (
    <section aria-label={`Result of ${tool}`} className="rounded-md border border-zinc-200 text-xs dark:border-zinc-800">
      <header className="flex items-center gap-2 border-b border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
        <span role="status" className={`font-medium ${tone}`}>
          {text}
        </span>
        {run.durationMs !== null ? <span className="text-zinc-500 dark:text-zinc-400">{run.durationMs} ms</span> : null}
      </header>
      {run.progress.length > 0 ? (
        <ol aria-label="Progress" className="border-b border-zinc-200 px-3 py-1.5 text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          {run.progress.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ol>
      ) : null}
      {run.stopped ? <p className="px-3 py-2 text-zinc-600 dark:text-zinc-400">You stopped the call before it answered; it may have partly run on the server.</p> : null}
      {run.error ? (
        <p role="alert" className="px-3 py-2 text-red-600">
          {errorSentence(run.error)}
        </p>
      ) : null}
      {run.result ? (
        <>
          <pre aria-label={`Answer of ${tool}`} className="max-h-72 overflow-auto whitespace-pre-wrap px-3 py-2 font-mono">
            {words || (parts.length === 0 ? "The tool answered nothing." : "")}
          </pre>
          {parts.map((part, index) =>
            part.type === "image" ? (
              PICTURE.test(part.mimeType) ? (
                // eslint-disable-next-line @next/next/no-img-element -- a data URL the tool answered, not a page asset
                <img key={index} src={`data:${part.mimeType};base64,${part.data}`} alt={`Image ${tool} answered (${part.mimeType})`} className="mx-3 mb-2 max-h-48 rounded border border-zinc-200 dark:border-zinc-800" />
              ) : (
                <p key={index} className="px-3 pb-2 text-zinc-500 dark:text-zinc-400">
                  An image of type {part.mimeType}, not shown here.
                </p>
              )
            ) : null,
          )}
        </>
      ) : null}
    </section>
  );
}
