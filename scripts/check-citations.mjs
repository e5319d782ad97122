#!/usr/bin/env node
// Comments, test names and scripts cite the repository's own documents: a rule id (R-...) from docs/rules.md or
// docs/operations.md, or a docs/ section. This fails, naming file:line, on a citation of a document a maintainer
// does not have (a seed, STACK.md, DESIGN.md, a pitfall or issue number) and on an R- id no docs/ entry defines.
// Run by `npm test`; edit when an outside document's name should be added to OUTSIDE.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const RULE_BOOKS = ["docs/rules.md", "docs/operations.md"];
const SKIPPED = [/^docs\//, /(^|\/)node_modules\//, /(^|\/)\.next\//, /^db\/migrations\//, /(^|\/)package-lock\.json$/, /^scripts\/check-citations\.mjs$/];
const OUTSIDE = [/\bseeds? ?0\d\d/i, /\bseed-0\d\d/i, /\bSTACK\.md\b/, /\bDESIGN\.md\b/, /\bpitfall \d/i, /\bissue \d/i];
// A citation split by a line break ("seed" at a line's end, "002" at the next one's start), comment marks between.
const SPLIT = [
  [/\bseeds?$/i, /^0\d\d/],
  [/\bpitfall$/i, /^\d/],
  [/\bissue$/i, /^\d/],
];
// "R-ops-..." in prose names a family, not an id.
const RULE_ID = /\bR-[a-z0-9]+(?:-[a-z0-9]+)*\b(?!-\.)/g;

function files() {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" });
  return [...new Set(listed.split("\0").filter(Boolean))].filter((file) => !SKIPPED.some((skip) => skip.test(file)));
}

function read(file) {
  try {
    const buffer = fs.readFileSync(path.join(root, file));
    return buffer.includes(0) ? null : buffer.toString("utf8"); // binary files cite nothing
  } catch {
    return null; // listed by git but deleted in the working tree
  }
}

const bare = (line) => line.replace(/^\s*(\/\/+|#+|\*+|\/\*+|"""|''')?\s*/, "");

const defined = new Set();
for (const book of RULE_BOOKS) {
  for (const match of (read(book) ?? "").matchAll(/\*\*(R-[a-z0-9-]+)\*\*/g)) defined.add(match[1]);
}

const problems = [];
for (const file of files()) {
  const text = read(file);
  if (text === null) continue;
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const outside = OUTSIDE.find((pattern) => pattern.test(line));
    if (outside) problems.push(`${where}: cites an outside document (${line.match(outside)[0]}); cite a rule id from docs/rules.md, or say why in words`);
    const next = lines[i + 1];
    if (next !== undefined && SPLIT.some(([end, start]) => end.test(line.trimEnd()) && start.test(bare(next)))) {
      problems.push(`${where}: cites an outside document across a line break; cite a rule id from docs/rules.md, or say why in words`);
    }
    for (const [id] of line.matchAll(RULE_ID)) {
      if (!defined.has(id)) problems.push(`${where}: ${id} is not defined in ${RULE_BOOKS.join(" or ")}; add its entry there, or cite an id that exists`);
    }
  });
}

// The rule books and the guide may only mention ids that have an entry.
for (const doc of [...RULE_BOOKS, "docs/writing-tools.md"]) {
  (read(doc) ?? "").split("\n").forEach((line, i) => {
    for (const [id] of line.matchAll(RULE_ID)) {
      if (!defined.has(id)) problems.push(`${doc}:${i + 1}: ${id} is mentioned but has no entry`);
    }
  });
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`\n${problems.length} citation problem${problems.length === 1 ? "" : "s"}.`);
  process.exit(1);
}
console.log(`citations: every rule id cited is defined (${defined.size} rules), and nothing cites an outside document.`);
