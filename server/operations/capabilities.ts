// The closed vocabulary operations declare themselves against (R-sys-capabilities): what a builder's need
// ("file.write") resolves to, rather than words a description happens to share. Edit to add a tag; a tree file's
// `capabilities=` outside this list is shown as a warning on its source and never matches a need.
export type Capability = {
  tag: string;
  /** What a builder reads in the palette, in their words. */
  label: string;
};

export const CAPABILITIES: readonly Capability[] = [
  { tag: "file.read", label: "Read files" },
  { tag: "file.list", label: "List folders" },
  { tag: "file.search", label: "Search files by name or content" },
  { tag: "file.write", label: "Create or change files" },
  { tag: "file.delete", label: "Delete files and folders" },
  { tag: "file.export", label: "Make a file for a person to download" },
  { tag: "shell.exec", label: "Run shell commands" },
  { tag: "code.exec", label: "Run programs that call tools" },
  { tag: "web.fetch", label: "Fetch web pages" },
  { tag: "memory.read", label: "Recall remembered facts" },
  { tag: "memory.write", label: "Remember facts between runs" },
  { tag: "plan.read", label: "Read the plan" },
  { tag: "plan.write", label: "Keep a plan of steps" },
  { tag: "user.ask", label: "Ask a person a question" },
  { tag: "db.query", label: "Query a database" },
  { tag: "db.write", label: "Change a database" },
  { tag: "message.send", label: "Send messages" },
  { tag: "ticket.read", label: "Look up tickets" },
  { tag: "ticket.write", label: "Open or change tickets" },
  { tag: "time.read", label: "Tell the date and time" },
];

const TAGS = new Set(CAPABILITIES.map((c) => c.tag));

export function isCapability(tag: string): boolean {
  return TAGS.has(tag);
}

/** The tags under a namespace ("file" or "file.") or the one exact tag; empty when it names none. */
export function capabilitiesMatching(need: string): string[] {
  const wanted = need.toLowerCase().replace(/\.$/, "");
  if (TAGS.has(wanted)) return [wanted];
  return CAPABILITIES.filter((c) => c.tag.startsWith(`${wanted}.`)).map((c) => c.tag);
}
