import { describe, expect, it } from "vitest";
import { globShape, globToRegExp } from "./glob-pattern";

const matches = (glob: string, path: string) => globToRegExp(glob).test(path);

describe("glob patterns", () => {
  it("match * and ? within one folder name only", () => {
    expect(matches("*.md", "a.md")).toBe(true);
    expect(matches("*.md", "docs/a.md")).toBe(false);
    expect(matches("a?.txt", "ab.txt")).toBe(true);
    expect(matches("a?.txt", "a/.txt")).toBe(false);
  });

  it("match ** across any number of folders, none included", () => {
    expect(matches("**/*.md", "a.md")).toBe(true);
    expect(matches("**/*.md", "x/y/a.md")).toBe(true);
    expect(matches("docs/**", "docs/x/y")).toBe(true);
    expect(matches("docs/**/z.md", "docs/z.md")).toBe(true);
  });

  it("match classes and alternatives, and take everything else literally", () => {
    expect(matches("file[0-9].csv", "file7.csv")).toBe(true);
    expect(matches("file[!0-9].csv", "file7.csv")).toBe(false);
    expect(matches("*.{md,txt}", "a.txt")).toBe(true);
    expect(matches("a+b(1).md", "a+b(1).md")).toBe(true);
    expect(matches("a.md", "aXmd")).toBe(false);
  });

  it("say where a walk may start and how deep it needs to go", () => {
    expect(globShape("reports/2024-*.csv")).toEqual({ prefix: ["reports"], depth: 1 });
    expect(globShape("**/*.md")).toEqual({ prefix: [], depth: Infinity });
    expect(globShape("a/b/c.md")).toEqual({ prefix: ["a", "b"], depth: 1 });
  });
});
