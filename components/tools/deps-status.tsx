"use client";
// The dependency status (R-deps-status): one line for the /tools footer and the editor's Project files group, and the
// panel beside an open dependency file with the last run's line, the files left in tools/, Install now and the log.
// While an install runs both poll, so the log streams.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, CircleCheck, CircleDashed, LoaderCircle, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import type { DepsState } from "@/server/tree/deps-status";

const POLL_MS = 1000;

const words: Record<DepsState, string> = {
  installing: "Dependencies installing…",
  installed: "Dependencies installed",
  unchanged: "Dependencies unchanged since the last install",
  failed: "Dependencies failed to install",
  none: "No dependency files",
  interrupted: "The last install stopped before it finished",
  never: "Dependencies not installed yet",
};

function StateIcon({ state }: { state: DepsState }) {
  if (state === "installing") return <LoaderCircle aria-hidden className="h-3.5 w-3.5 animate-spin text-zinc-500 dark:text-zinc-400" />;
  if (state === "installed" || state === "unchanged") return <CircleCheck aria-hidden className="h-3.5 w-3.5 text-emerald-600" />;
  if (state === "failed" || state === "interrupted") return <CircleAlert aria-hidden className="h-3.5 w-3.5 text-red-600" />;
  return <CircleDashed aria-hidden className="h-3.5 w-3.5 text-zinc-400" />;
}

const poll = (query: { state: { data?: { state: DepsState } } }) => (query.state.data?.state === "installing" ? POLL_MS : false);

/** One line: the state, and for a failure the line that says why; a misplaced file's sentence under it. */
export function DepsStatusLine({ className = "" }: { className?: string }) {
  const trpc = useTRPC();
  const status = useQuery({ ...trpc.tools.project.status.queryOptions(), refetchInterval: poll });
  if (status.error) return <ErrorText error={status.error} className="text-xs text-red-600" />;
  if (!status.data) return null;
  const { state, last, note } = status.data;
  return (
    <span className={`inline-flex flex-col gap-0.5 ${className}`}>
      <span
        role="status"
        title={state === "failed" ? (last?.detail ?? undefined) : undefined}
        className={`inline-flex items-center gap-1 ${state === "failed" ? "text-red-600" : ""}`}
      >
        <StateIcon state={state} /> {words[state]}
        {state === "failed" && last?.detail ? <span className="sr-only">: {last.detail}</span> : null}
      </span>
      {note ? <span className="text-amber-700 dark:text-amber-400">{note}</span> : null}
    </span>
  );
}

/** Beside an open dependency file: how the last run went, Install now, and the log's end. */
export function DepsPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const log = useQuery({ ...trpc.tools.project.log.queryOptions(), refetchInterval: poll });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.tools.project.log.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.tools.project.status.queryKey() }),
    ]);
  const install = useMutation(trpc.tools.project.install.mutationOptions({ onSuccess: refresh }));
  const data = log.data;
  return (
    <section aria-label="Dependencies" className="flex min-h-0 flex-1 flex-col gap-3 overflow-auto p-3 text-sm">
      <header className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <h2 className="font-medium">Dependencies</h2>
          {data ? (
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              Read from <code className="font-mono">{data.root}</code>, in order: requirements.txt, pyproject.toml&apos;s [project]
              dependencies, setup.sh. Saving one of them installs at once.
            </p>
          ) : null}
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => install.mutate()}
          disabled={install.isPending || data?.state === "installing"}
        >
          <RotateCw aria-hidden className="h-3.5 w-3.5" /> Install now
        </Button>
      </header>
      <ErrorText error={install.error ?? log.error} />
      {data ? (
        <>
          <div data-testid="deps-state" className="space-y-1">
            <p role="status" className={`flex items-center gap-1.5 font-medium ${data.state === "failed" ? "text-red-600" : ""}`}>
              <StateIcon state={data.state} /> {words[data.state]}
              {data.last && data.state !== "installing" ? (
                <span className="font-normal text-zinc-500 dark:text-zinc-400">
                  · <Time at={data.last.at} /> · {data.last.seconds.toFixed(1)} s
                </span>
              ) : null}
            </p>
            {data.state === "failed" && data.last?.detail ? <p className="text-red-700 dark:text-red-300">{data.last.detail}</p> : null}
            {data.state === "interrupted" ? <p>Read the log for how far it got, then Install now.</p> : null}
            {data.state === "never" ? <p>Save a dependency file, or Install now, to install what the checkout declares.</p> : null}
            {data.note ? <p className="text-amber-700 dark:text-amber-400">{data.note}</p> : null}
          </div>
          <div className="flex min-h-0 flex-1 flex-col">
            <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Log</h3>
            <p className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">
              <code className="font-mono">{data.log.path}</code>: the last install&apos;s transcript, then a line per run, newest last
              {data.log.truncated ? " (only its end is shown)" : ""}.
            </p>
            {data.log.text ? (
              <pre aria-label="Dependency log" className="min-h-32 flex-1 overflow-auto whitespace-pre-wrap break-all rounded-md bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900">
                {data.log.text}
              </pre>
            ) : (
              <p className="text-xs text-zinc-500 dark:text-zinc-400">No log yet: nothing has been installed for this tree.</p>
            )}
          </div>
        </>
      ) : log.isPending ? (
        <p className="text-zinc-500 dark:text-zinc-400">Reading the dependency status…</p>
      ) : null}
    </section>
  );
}
