#!/usr/bin/env node
// Comments, test names and scripts cite the repository's own documents: a rule id (R-...) from docs/rules.md or
// docs/operations.md, or a docs/ section. This fails, naming file:line, on a citation of a document a maintainer
// does not have (a seed, STACK.md, DESIGN.md, a pitfall or issue number), on an R- id no docs/ entry defines, and
// on a "docs/<file>.md, <Section>" citation or a docs/ link whose section does not exist.
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

// "docs/rules.md, Timeouts" cites a section: the words after the comma must begin with one of its headings.
const DOCS = ["docs/rules.md", "docs/operations.md", "docs/writing-tools.md"];
const headings = new Map(DOCS.map((doc) => [doc, (read(doc) ?? "").split("\n").filter((l) => /^#{2,3} /.test(l)).map((l) => l.replace(/^#+ /, ""))]));
const SECTION = /\b(docs\/[\w-]+\.md), ([A-Z][\w' ]*)/g;
/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading) => heading.toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-");

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
    for (const [, doc, words] of line.matchAll(SECTION)) {
      const known = headings.get(doc);
      if (!known) continue;
      if (!known.some((h) => words.startsWith(h) || (words.trim().length >= 4 && h.startsWith(words.trim())))) {
        problems.push(`${where}: ${doc} has no section "${words.trim()}"; its sections are: ${known.join("; ")}`);
      }
    }
  });
}

// The rule books and the guide may only mention ids that have an entry, and link only to headings that exist.
for (const doc of DOCS) {
  (read(doc) ?? "").split("\n").forEach((line, i) => {
    for (const [id] of line.matchAll(RULE_ID)) {
      if (!defined.has(id)) problems.push(`${doc}:${i + 1}: ${id} is mentioned but has no entry`);
    }
    for (const [, file, hash] of line.matchAll(/\]\(([\w-]+\.md)?#([\w-]+)\)/g)) {
      const target = file ? `docs/${file}` : doc;
      if (headings.has(target) && !headings.get(target).some((h) => anchor(h) === hash)) {
        problems.push(`${doc}:${i + 1}: the link to #${hash} names no heading of ${target}`);
      }
    }
  });
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`\n${problems.length} citation problem${problems.length === 1 ? "" : "s"}.`);
  process.exit(1);
}
console.log(`citations: every rule id cited is defined (${defined.size} rules), and nothing cites an outside document.`);
