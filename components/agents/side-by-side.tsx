// The text a builder accepted beside the text a server says now, line by line: a changed line marked on both sides
// (the words that differ struck out on the left, underlined on the right), a line only one side has beside a gap;
// a text that did not change is said to be unchanged, folded.
import { sideBySide, type Side } from "./line-diff";

function Cell({ side, kind }: { side: Side; kind: "before" | "after" }) {
  if (!side) return <td className="bg-zinc-50 dark:bg-zinc-900/60" aria-label="No line here" />;
  const tone = !side.changed ? "" : kind === "before" ? "bg-red-50 dark:bg-red-950/50" : "bg-emerald-50 dark:bg-emerald-950/50";
  const Mark = kind === "before" ? "del" : "ins";
  const mark = kind === "before" ? "bg-red-200/80 text-red-950 dark:bg-red-900 dark:text-red-100" : "bg-emerald-200/80 text-emerald-950 no-underline dark:bg-emerald-900 dark:text-emerald-100";
  return (
    <td className={`align-top ${tone}`}>
      <div className="flex">
        <span aria-hidden className="w-7 shrink-0 select-none pr-1.5 text-right text-zinc-400">
          {side.line}
        </span>
        <span aria-hidden className="w-3 shrink-0 select-none text-zinc-500 dark:text-zinc-400">
          {side.changed ? (kind === "before" ? "−" : "+") : ""}
        </span>
        <span className="min-w-0 whitespace-pre-wrap break-words">
          {side.segments.map((part, i) =>
            part.changed ? (
              <Mark key={i} className={`rounded-sm ${mark}`}>
                {part.text}
              </Mark>
            ) : (
              <span key={i}>{part.text}</span>
            ),
          )}
        </span>
      </div>
    </td>
  );
}

export function SideBySide({ label, before, after }: { label: string; before: string; after: string }) {
  // The same text twice says nothing: the builder reads that it did not change, and may unfold it.
  if (before === after) {
    return (
      <details className="text-[11px]">
        <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">Unchanged</summary>
        <pre aria-label={label} className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-zinc-50 px-2 py-1 font-mono dark:bg-zinc-900">
          {before || "(empty)"}
        </pre>
      </details>
    );
  }
  const rows = sideBySide(before, after);
  return (
    <table aria-label={label} className="w-full table-fixed border-collapse overflow-hidden rounded border border-zinc-200 font-mono text-[11px] leading-snug dark:border-zinc-800">
      <thead>
        <tr className="bg-zinc-50 text-left font-sans text-[11px] text-zinc-500 dark:text-zinc-400 dark:bg-zinc-900">
          <th scope="col" className="border-b border-r border-zinc-200 px-2 py-1 font-medium dark:border-zinc-800">
            Accepted when the agent was saved
          </th>
          <th scope="col" className="border-b border-zinc-200 px-2 py-1 font-medium dark:border-zinc-800">
            What the server says now
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={2} className="px-2 py-1 font-sans text-zinc-500 dark:text-zinc-400">
              Empty on both sides.
            </td>
          </tr>
        ) : (
          rows.map((row, i) => (
            <tr key={i} className="[&>td:first-child]:border-r [&>td:first-child]:border-zinc-200 dark:[&>td:first-child]:border-zinc-800">
              <Cell side={row.left} kind="before" />
              <Cell side={row.right} kind="after" />
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
