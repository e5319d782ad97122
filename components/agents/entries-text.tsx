"use client";
// "Show as text": what the agent can use as its canonical strings, one per line, editable. Each line keeps the
// settings and approvals its source had when the text was opened; every problem is named by line.
import { useState } from "react";
import type { Problem } from "@/server/agents/declaration";
import { fieldId, problemsAt, splitEntry, type DraftTool } from "./draft";

/** The tools the lines describe, reusing each source's settings and approvals from `base`. */
function toolsOf(lines: string[], base: readonly DraftTool[]): DraftTool[] {
  const used = new Set<number>();
  return lines.map((line) => {
    const { source, operations } = splitEntry(line);
    const index = base.findIndex((t, i) => !used.has(i) && splitEntry(t.entry).source === source);
    if (index === -1) return { entry: line, settings: {}, permissions: {} };
    used.add(index);
    const was = base[index]!;
    const permissions = operations === null ? was.permissions : Object.fromEntries(Object.entries(was.permissions).filter(([op]) => operations.includes(op)));
    return { entry: line, settings: was.settings, permissions };
  });
}

export function EntriesText({ tools, problems, onChange }: { tools: readonly DraftTool[]; problems: readonly Problem[]; onChange: (tools: DraftTool[]) => void }) {
  const [base] = useState(() => tools.map((t) => ({ ...t })));
  const [text, setText] = useState(() => tools.map((t) => t.entry).join("\n"));
  const lines = text.split("\n").map((line) => line.trim());
  // Which tool each non-empty line became, so a problem at tools[i] is named by its line.
  const lineOf = lines.flatMap((line, i) => (line ? [i + 1] : []));
  const messages = tools.flatMap((_, index) =>
    [...problemsAt(problems, `tools[${index}]`), ...problemsAt(problems, `tools[${index}].entry`)].map((message) => ({ line: lineOf[index] ?? index + 1, message })),
  );
  const id = fieldId("tools");

  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-medium">
        What this agent can use, as text
      </label>
      <textarea
        id={id}
        value={text}
        rows={Math.max(4, lines.length + 1)}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          onChange(
            toolsOf(
              e.target.value
                .split("\n")
                .map((line) => line.trim())
                .filter(Boolean),
              base,
            ),
          );
        }}
        aria-invalid={messages.length > 0}
        aria-describedby={`${id}-note`}
        className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono text-xs leading-relaxed outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
      />
      <div id={`${id}-note`} className="flex flex-col gap-0.5 text-xs">
        {messages.map((m, i) => (
          <span key={i} className="text-red-600">
            Line {m.line}: {m.message}
          </span>
        ))}
        <span className="text-zinc-500 dark:text-zinc-400">
          One source per line: <code className="font-mono">system:&lt;name&gt;</code> for a built-in,{" "}
          <code className="font-mono">tools/&lt;file&gt;.py</code> for a file of the tree; <code className="font-mono">#a,b</code> after it
          gives only those operations. Settings and approvals stay as they were.
        </span>
      </div>
    </div>
  );
}
