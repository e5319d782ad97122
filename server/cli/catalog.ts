// `quiver catalog`: a tree's files, their tools and their errors, as a table for people or as the catalog's JSON.
// Edit when the catalog gains a column people need at the terminal.
import type { Catalog } from "../host";

/** The table: one row per file (path, kind, what it offers), then each error under its file with its line. */
export function catalogTable(catalog: Catalog): string {
  const rows = catalog.files.map((file) => [
    file.path,
    file.kind,
    file.kind === "helper" ? "(helper)" : file.offered ? file.tools.map((tool) => tool.name).join(", ") || "(no tools)" : "(not offered)",
  ]);
  const header = ["FILE", "KIND", "TOOLS"];
  const widths = [0, 1].map((i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell)).join("  ").trimEnd();
  const out = [line(header)];
  catalog.files.forEach((file, i) => {
    out.push(line(rows[i]!));
    for (const error of file.errors) out.push(`    ${file.path}:${error.line ?? "-"}: ${error.message}`);
  });
  const errors = catalog.files.reduce((n, file) => n + file.errors.length, 0);
  const tools = catalog.files.reduce((n, file) => n + (file.offered ? file.tools.length : 0), 0);
  out.push("", `${catalog.files.length} files, ${tools} tools offered, ${errors} errors`);
  return out.join("\n");
}
