"use client";
// Export: the saved agent as its JSON file, downloaded; what was left out (a setting that is a secret now but
// held something other than a secret's name) is said beside the button.
import { useQueryClient } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useState } from "react";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";

export function ExportButton({ id, describe }: { id: string; describe: (path: string) => string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);

  async function download() {
    setBusy(true);
    setNote(null);
    try {
      const file = await queryClient.fetchQuery({ ...trpc.agents.export.queryOptions({ id }), staleTime: 0 });
      const url = URL.createObjectURL(new Blob([file.json], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = file.filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setNote({
        text:
          file.withheld.length > 0
            ? `Exported ${file.filename}, without ${file.withheld.map(describe).join(", ")}: a secret's value is never exported, only its name.`
            : `Exported ${file.filename} (the saved version; secrets by name only).`,
        error: false,
      });
    } catch (err) {
      setNote({ text: errorSentence(err as Error), error: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="flex items-center gap-2">
      {note ? (
        <span role={note.error ? "alert" : "status"} className={`max-w-xs text-xs ${note.error ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
          {note.text}
        </span>
      ) : null}
      <Button onClick={download} disabled={busy}>
        <Download aria-hidden className="h-4 w-4" /> Export
      </Button>
    </span>
  );
}
