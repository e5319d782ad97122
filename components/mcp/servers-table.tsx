"use client";
// Settings → MCP servers: one row per registered server, New server and Import mcp.json above them, and the
// dialogs they open. An empty registry says what to do first.
import { useQuery } from "@tanstack/react-query";
import { FileJson, Plus, Server } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DeleteServerDialog } from "./delete-server-dialog";
import { ImportDialog } from "./import-dialog";
import { ServerDialog } from "./server-dialog";
import { ServerRow } from "./server-row";
import type { ServerRow as Row } from "./types";

export function ServersTable() {
  const trpc = useTRPC();
  const list = useQuery(trpc.mcpServers.list.queryOptions());
  const [editing, setEditing] = useState<Row | "new" | null>(null);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [imported, setImported] = useState<string[] | null>(null);
  const rows = list.data ?? [];

  const actions = (
    <>
      <Button variant="primary" onClick={() => setEditing("new")}>
        <Plus aria-hidden className="h-4 w-4" /> New server
      </Button>
      <Button onClick={() => setImporting(true)}>
        <FileJson aria-hidden className="h-4 w-4" /> Import mcp.json
      </Button>
    </>
  );

  return (
    <section className="px-8 py-6" aria-label="MCP servers">
      <ServerDialog server={editing} onClose={() => setEditing(null)} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={setImported} />
      <DeleteServerDialog server={deleting} onClose={() => setDeleting(null)} />
      {list.error ? (
        <ErrorText
          error={list.error}
          byCode={{ FORBIDDEN: "Managing MCP servers needs the Admin role; ask an admin of this studio to give it to you in Settings → Users." }}
          className="max-w-xl text-sm text-red-600"
        />
      ) : list.isPending ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the MCP servers…</p>
      ) : rows.length === 0 ? (
        <EmptyState icon={Server} title="No MCP servers yet — New server or Import mcp.json" actions={actions}>
          An MCP server offers tools agents can use. Register one by the command that starts it or the URL that reaches
          it, or paste the mcp.json Claude Desktop, Cursor or VS Code uses.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex items-center justify-end gap-2">
            {imported ? (
              <p role="status" className="mr-auto text-sm text-zinc-600 dark:text-zinc-400">
                Imported {imported.join(", ")}.
              </p>
            ) : null}
            {actions}
          </div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Transport</TableHead>
                <TableHead>Tools</TableHead>
                <TableHead className="whitespace-nowrap">Last read</TableHead>
                <TableHead className="whitespace-nowrap">Used by</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((server) => (
                <ServerRow key={server.id} server={server} onEdit={() => setEditing(server)} onDelete={() => setDeleting(server)} />
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </section>
  );
}
