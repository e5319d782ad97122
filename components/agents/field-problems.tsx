// The problems of one field, under it, in red: the sentence says what to do.
export function FieldProblems({ id, messages, hint }: { id: string; messages: readonly string[]; hint?: string }) {
  if (messages.length === 0) return hint ? <span id={id} className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</span> : <span id={id} hidden />;
  return (
    <span id={id} className="flex flex-col gap-0.5 text-xs text-red-600">
      {messages.map((message, i) => (
        <span key={i}>{message}</span>
      ))}
    </span>
  );
}
