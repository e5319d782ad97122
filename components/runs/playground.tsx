"use client";
// /agents/<id>/run: talk to an agent and watch its calls. The run in view is kept in the address (?run=<id>), so a
// reload or a shared link re-opens it; New conversation starts over.
import Link from "next/link";
import { Pencil, Plus } from "lucide-react";
import { useState } from "react";
import { PageHeader } from "@/components/frame/page-header";
import { Button } from "@/components/ui/button";
import { RunPane } from "./run-pane";

type Props = { agentId: string; agentName: string; initialRunId: string | null };

export function Playground({ agentId, agentName, initialRunId }: Props) {
  const [runId, setRunId] = useState(initialRunId);
  function show(id: string | null) {
    setRunId(id);
    window.history.replaceState(null, "", id ? `?run=${id}` : window.location.pathname);
  }
  return (
    <div className="flex h-screen min-h-0 flex-col">
      <PageHeader
        title={`Run ${agentName}`}
        lede="Talk to the agent as a person would; every tool call shows here as it happens, with what the model was told."
        action={
          <div className="flex items-center gap-2">
            <Button asChild variant="ghost">
              <Link href={`/agents/${agentId}`}>
                <Pencil aria-hidden className="h-4 w-4" /> Edit agent
              </Link>
            </Button>
            <Button onClick={() => show(null)} disabled={!runId}>
              <Plus aria-hidden className="h-4 w-4" /> New conversation
            </Button>
          </div>
        }
      />
      <RunPane key={runId ?? "new"} agentId={agentId} agentName={agentName} runId={runId} onStarted={show} />
    </div>
  );
}
