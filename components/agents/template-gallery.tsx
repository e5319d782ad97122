"use client";
// "New agent": a gallery of starters (R-template-gallery). Blank agent first, then one card per template with its
// purpose and what it uses; picking one makes the agent at once and opens it for the builder to adjust. A source
// this studio lacks is named on its card, and the agent is made anyway (its page says what to resolve).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { CircleAlert, FilePlus2, LayoutTemplate } from "lucide-react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog } from "@/components/ui/dialog";
import type { TemplateCard, TemplateUse } from "@/server/templates/gallery";

const card =
  "flex h-full w-full flex-col gap-1 rounded-lg border border-zinc-200 p-3 text-left outline-none transition hover:border-accent focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-wait disabled:opacity-60 dark:border-zinc-800 dark:hover:border-accent";

function useText(use: TemplateUse): string {
  return use.operations ? `${use.title} (${use.operations.join(", ")})` : use.title;
}

function Uses({ uses }: { uses: readonly TemplateUse[] }) {
  const missing = uses.filter((use) => use.missing);
  return (
    <>
      <span className="text-xs text-zinc-500 dark:text-zinc-400">Uses: {uses.length ? uses.map(useText).join("; ") : "nothing yet"}</span>
      {missing.map((use) => (
        <span key={use.entry} className="flex items-start gap-1 text-xs text-amber-700 dark:text-amber-400">
          <CircleAlert aria-hidden className="mt-0.5 h-3 w-3 shrink-0" />
          {use.missing} The agent is made without it working; its page says what to do.
        </span>
      ))}
    </>
  );
}

export function TemplateGallery({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  // Read again each time it opens: a tool file added or removed since changes what a card says.
  const gallery = useQuery({ ...trpc.start.templates.queryOptions(), enabled: open, staleTime: 0 });
  const create = useMutation(trpc.start.createAgent.mutationOptions());

  function pick(template: string | null) {
    create.mutate(
      { template },
      {
        onSuccess: async (agent) => {
          await queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
          await queryClient.invalidateQueries({ queryKey: trpc.start.checklist.queryKey() });
          router.push(`/agents/${agent.id}`);
        },
      },
    );
  }

  function close(next: boolean) {
    if (!next) create.reset();
    onOpenChange(next);
  }

  const templates: TemplateCard[] = gallery.data?.templates ?? [];
  const busy = create.isPending;
  return (
    <Dialog open={open} onOpenChange={close} title="New agent" size="wide" description="Start from a template, or from nothing; you adjust everything on the agent's page.">
      <ErrorText error={create.error ?? gallery.error} className="mb-3 text-sm text-red-600" />
      <ul aria-label="Templates" className="grid gap-2 sm:grid-cols-2">
        <li>
          <button type="button" className={card} disabled={busy} onClick={() => pick(null)} aria-labelledby="template-blank" aria-describedby="template-blank-about">
            <span id="template-blank" className="flex items-center gap-2 font-medium">
              <FilePlus2 aria-hidden className="h-4 w-4 text-accent dark:text-indigo-400" /> Blank agent
            </span>
            <span id="template-blank-about" className="text-sm text-zinc-600 dark:text-zinc-400">A model and nothing else: add the instructions and the tools yourself.</span>
          </button>
        </li>
        {templates.map((template) => (
          <li key={template.id}>
            <button
              type="button"
              className={card}
              disabled={busy}
              onClick={() => pick(template.id)}
              aria-labelledby={`template-${template.id}`}
              aria-describedby={`template-${template.id}-about`}
            >
              <span id={`template-${template.id}`} className="flex items-center gap-2 font-medium">
                <LayoutTemplate aria-hidden className="h-4 w-4 text-accent dark:text-indigo-400" /> {template.name}
              </span>
              <span id={`template-${template.id}-about`} className="flex flex-col gap-1">
                <span className="text-sm text-zinc-600 dark:text-zinc-400">{template.purpose}</span>
                <Uses uses={template.uses} />
              </span>
            </button>
          </li>
        ))}
      </ul>
      {gallery.isPending ? <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">Loading the templates…</p> : null}
      {busy ? <p role="status" className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">Creating the agent…</p> : null}
      {gallery.data?.broken.map((file) => (
        <p key={file.id} className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">
          The template {file.id} is not offered: {file.problems[0]?.path ? `${file.problems[0].path}: ` : ""}
          {file.problems[0]?.message}
        </p>
      ))}
    </Dialog>
  );
}
