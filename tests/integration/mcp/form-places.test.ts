// Every fault the registry's shape check names has a field on the New server form to show it at (R-mcp-register):
// a path the form does not know would push the sentence away from the field it is about.
import { describe, expect, it } from "vitest";
import { placeOf } from "@/components/mcp/server-form";
import { parseServerConfig } from "@/server/mcp/config";

const faulty: unknown[] = [
  { name: "", description: 5, idleStopS: -1, transport: { type: "stdio", command: "${X}", args: [1, "${input:x}"], cwd: "relative", env: { "1BAD": "v", OK: 3 } } },
  { name: "h", transport: { type: "http", url: "ftp://x", headers: { "Bad Name": "v", Good: "a\nb" } } },
  { name: "h", transport: { type: "http", url: "https://x", headers: [] } },
  { name: "s", transport: { type: "stdio", command: "node", args: "not a list", env: "not an object" } },
  { name: "t", transport: { type: "carrier-pigeon" } },
  { name: "t" },
];

describe("the New server form's places", () => {
  it("has a field for every path the registry's shape check names", () => {
    const paths = faulty.flatMap((input) => parseServerConfig(input).problems.map((p) => p.path));
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) expect({ path, place: placeOf(path) }).not.toMatchObject({ place: "other" });
  });
});
