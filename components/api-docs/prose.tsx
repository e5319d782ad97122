// A description from the API document as paragraphs, its `backticked` words as code. Nothing else of Markdown: the
// descriptions are the studio's own sentences.
export function Prose({ text, className = "" }: { text: string; className?: string }) {
  const paragraphs = text.split(/\n\n+/).filter((p) => p.trim() !== "");
  return (
    <div className={`space-y-2 ${className}`}>
      {paragraphs.map((paragraph, i) => (
        <p key={i}>
          {paragraph.split(/(`[^`]+`)/).map((part, j) =>
            part.startsWith("`") && part.endsWith("`") ? (
              <code key={j} className="rounded bg-zinc-100 px-1 font-mono text-[0.85em] dark:bg-zinc-800">
                {part.slice(1, -1)}
              </code>
            ) : (
              part
            ),
          )}
        </p>
      ))}
    </div>
  );
}
