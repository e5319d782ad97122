"use client";
// One server's row: status, transport, tools, when they were read, the agents using it, and its actions. Test
// connection and Restart answer on the row itself; the tools and a stdio server's recent stderr unfold beneath it.
// A server that signs in with OAuth adds its sign-in under the status, and Connect and Disconnect to the actions.
import { AgentLinks } from "@/components/ui/agent-links";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, ChevronRight, Pencil, PlugZap, RotateCw, Trash2 } from "lucide-react";
import { useState } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { TableCell, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { SignInActions, SignInLine } from "./sign-in";
import { StatusBadge } from "./status-badge";
import { ToolsList } from "./tools-list";
import type { ServerRow as Row } from "./types";

export const COLUMNS = 7;

function Transport({ server }: { server: Row }) {
  const t = server.transport;
  const running = server.status.transport;
  const line = t.type === "stdio" ? [t.command, ...t.args].join(" ") : t.url;
  const label = t.type === "stdio" ? "stdio" : running === "sse" ? "HTTP+SSE (older transport)" : "Streamable HTTP";
  return (
    <div className="flex max-w-[11rem] flex-col">
      <span>{label}</span>
      <code title={line} className="truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">
        {line}
      </code>
    </div>
  );
}

function Toggle({ open, onClick, controls, children, label }: { open: boolean; onClick: () => void; controls: string; children: string; label: string }) {
  const Icon = open ? ChevronDown : ChevronRight;
  return (
    <button type="button" aria-expanded={open} aria-controls={controls} aria-label={label} onClick={onClick} className="inline-flex items-center gap-0.5 whitespace-nowrap text-xs text-accent dark:text-indigo-400 hover:underline">
      <Icon aria-hidden className="h-3.5 w-3.5" /> {children}
    </button>
  );
}

/** A connected server whose list is unread has just connected or said its tools changed: either way, not yet read. */
function toolCount(status: Row["status"]): string {
  if (status.toolCount !== null) return `${status.toolCount} tool${status.toolCount === 1 ? "" : "s"}`;
  return status.state === "connected" ? "Not read since it changed" : "Not read yet";
}

export function ServerRow({ server, onEdit, onDelete }: { server: Row; onEdit: () => void; onDelete: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [toolsOpen, setToolsOpen] = useState(false);
  const [stderrOpen, setStderrOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.mcpServers.list.queryKey() });
  const test = useMutation(trpc.mcpServers.test.mutationOptions({ onSettled: refresh }));
  const restart = useMutation(trpc.mcpServers.restart.mutationOptions({ onSettled: refresh }));
  const [said, setSaid] = useState<"test" | "restart" | null>(null);
  const { status } = server;
  const stdio = server.transport.type === "stdio";
  const detailsId = `mcp-details-${server.id}`;

  const answer =
    said === "test"
      ? test.isPending
        ? { ok: true, sentence: "Connecting…" }
        : test.error
          ? { ok: false, sentence: errorSentence(test.error) }
          : test.data
      : said === "restart"
        ? restart.isPending
          ? { ok: true, sentence: "Restarting…" }
          : restart.error
            ? { ok: false, sentence: errorSentence(restart.error) }
            : restart.data && { ok: restart.data.state !== "failed", sentence: restart.data.sentence }
        : null;

  return (
    <>
      <TableRow id={server.id} className="align-top">
        <TableCell>
          <span className="font-medium">{server.name}</span>
          {server.description ? <span className="block max-w-xs text-xs text-zinc-500 dark:text-zinc-400">{server.description}</span> : null}
        </TableCell>
        <TableCell className="min-w-[11rem]">
          <StatusBadge status={status} />
          <SignInLine server={server} />
          {stdio ? (
            <Toggle open={stderrOpen} onClick={() => setStderrOpen(!stderrOpen)} controls={detailsId} label={`${stderrOpen ? "Hide" : "Show"} recent stderr of ${server.name}`}>
              Recent stderr
            </Toggle>
          ) : null}
        </TableCell>
        <TableCell>
          <Transport server={server} />
        </TableCell>
        <TableCell className="whitespace-nowrap">
          <span className="block">{toolCount(status)}</span>
          <Toggle open={toolsOpen} onClick={() => setToolsOpen(!toolsOpen)} controls={detailsId} label={`${toolsOpen ? "Hide" : "Show"} tools of ${server.name}`}>
            {toolsOpen ? "Hide tools" : "Show tools"}
          </Toggle>
        </TableCell>
        <TableCell className="text-zinc-600 dark:text-zinc-400">{status.toolsReadAt ? <Time at={status.toolsReadAt} /> : "Not yet"}</TableCell>
        <TableCell className="min-w-[6rem] text-xs">
          <AgentLinks agents={server.agents} />
        </TableCell>
        <TableCell className="text-right">
          <div className="ml-auto grid w-max grid-cols-[auto_auto] justify-items-end gap-0.5 whitespace-nowrap">
            <Button size="sm" variant="ghost" aria-label={`Test connection to ${server.name}`} disabled={test.isPending} onClick={() => {
                setSaid("test");
                test.mutate({ id: server.id });
              }}>
              <PlugZap aria-hidden className="h-3.5 w-3.5" /> Test connection
            </Button>
            <Button size="sm" variant="ghost" aria-label={`Restart ${server.name}`} disabled={restart.isPending} onClick={() => {
                setSaid("restart");
                restart.mutate({ id: server.id });
              }}>
              <RotateCw aria-hidden className="h-3.5 w-3.5" /> Restart
            </Button>
            <Button size="sm" variant="ghost" aria-label={`Edit ${server.name}`} onClick={onEdit}>
              <Pencil aria-hidden className="h-3.5 w-3.5" /> Edit
            </Button>
            <Button size="sm" variant="ghost" aria-label={`Delete ${server.name}`} onClick={onDelete}>
              <Trash2 aria-hidden className="h-3.5 w-3.5" /> Delete
            </Button>
            <SignInActions server={server} />
          </div>
          <p role="status" aria-label={`Answer for ${server.name}`} className={`mt-1 ml-auto max-w-[14rem] text-right text-xs ${answer && !answer.ok ? "text-red-600" : "text-zinc-600 dark:text-zinc-400"}`}>
            {answer?.sentence ?? ""}
          </p>
        </TableCell>
      </TableRow>
      {toolsOpen || stderrOpen ? (
        <tr id={detailsId} className="border-b border-zinc-100 dark:border-zinc-900">
          <td colSpan={COLUMNS} className="px-4 pb-4 pt-1">
            {stderrOpen ? (
              <section aria-label={`Recent stderr of ${server.name}`} className="mb-3">
                <p className="mb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400">Recent stderr (secrets masked)</p>
                <pre className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-zinc-950 p-2 font-mono text-xs text-zinc-100">
                  {status.stderr || "Nothing written to stderr yet."}
                </pre>
              </section>
            ) : null}
            {toolsOpen ? <ToolsList serverId={server.id} serverName={server.name} /> : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}
