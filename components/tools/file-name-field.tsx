// A tool file's name, with what is wrong with it under it as the person types (R-file-module-name), or why the
// server refused it: used where a file is made and where one is renamed.
export function FileNameField({
  id,
  label,
  value,
  onChange,
  problem,
  refusal = null,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What is wrong with the name as typed: marks the field invalid. */
  problem: string | null;
  /** The server's sentence, when it refused the name. */
  refusal?: string | null;
  placeholder?: string;
}) {
  const message = problem ?? refusal;
  return (
    <>
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">{label}</span>
        <input
          autoFocus
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder={placeholder}
          aria-invalid={!!problem}
          aria-describedby={`${id}-problem`}
          className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 font-mono outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
        />
      </label>
      <p id={`${id}-problem`} role={message ? "alert" : undefined} className="min-h-5 text-sm text-red-600">
        {message ?? ""}
      </p>
    </>
  );
}
