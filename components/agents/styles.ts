// The agent page's control styles, shared by its sections so every field looks alike.
export const inputClass =
  "w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-sm outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700";

export const selectClass =
  "rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-sm outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700";
