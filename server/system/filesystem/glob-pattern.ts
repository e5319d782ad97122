// Glob patterns as regular expressions over slash-separated relative paths: `*` and `?` within one folder name,
// `**` across any number of folders, `[abc]` and `{md,txt}`. Hidden files match like any other.

const SPECIAL = /[*?[{]/;

function escape(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

function translate(glob: string): string {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      const after = i + 2;
      if (atStart && glob[after] === "/") {
        out += "(?:[^/]*/)*";
        i = after + 1;
      } else if (atStart && after === glob.length) {
        out += ".*";
        i = after;
      } else {
        out += "[^/]*";
        i = after;
      }
    } else if (c === "*") {
      out += "[^/]*";
      i++;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        i++;
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^/" : ""}${body.replace(/\\/g, "\\\\").replace(/\]/g, "\\]")}]`;
      i = close + 1;
    } else if (c === "{") {
      const close = glob.indexOf("}", i);
      if (close === -1) {
        out += "\\{";
        i++;
        continue;
      }
      out += `(?:${glob.slice(i + 1, close).split(",").map(translate).join("|")})`;
      i = close + 1;
    } else {
      out += escape(c);
      i++;
    }
  }
  return out;
}

/** The pattern as a regular expression that matches a whole relative path. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob.replace(/\\/g, "/").replace(/^\.\//, ""))}$`);
}

/** The leading folder names without wildcards (where a walk may start), and how many names the rest spans. */
export function globShape(glob: string): { prefix: string[]; depth: number } {
  const parts = glob.replace(/\\/g, "/").replace(/^\.\//, "").split("/").filter((p) => p !== "" && p !== ".");
  const firstWild = parts.findIndex((p) => SPECIAL.test(p));
  const prefix = firstWild === -1 ? parts.slice(0, -1) : parts.slice(0, firstWild);
  const rest = parts.slice(prefix.length);
  return { prefix, depth: rest.some((p) => p.includes("**")) || rest.some((p) => p.includes("{")) ? Infinity : rest.length };
}
