// The New/Edit server form as data: a row read back into the form and out again is the same server, blank rows
// and lines are spacing, and every problem the registry or input validation names lands at its field.
import { describe, expect, it } from "vitest";
import { configOf, emptyForm, formOf, localProblems, placeOf, placeProblems } from "./server-form";

const stdioRow = {
  name: "tickets",
  description: "The tracker",
  idleStopS: 90,
  transport: { type: "stdio" as const, command: "node", args: ["server.js", "--token", "${TICKETS_TOKEN}"], cwd: "/srv/tickets", env: { LOG: "debug", TOKEN: "${TICKETS_TOKEN}" } },
};
const httpRow = { name: "remote", description: "", idleStopS: 600, transport: { type: "http" as const, url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } } };

describe("the server form", () => {
  it("gives back the row it was filled from, for both transports", () => {
    expect(configOf(formOf(stdioRow))).toEqual(stdioRow);
    expect(configOf(formOf(httpRow))).toEqual(httpRow);
    expect(formOf(stdioRow).idleMinutes).toBe("1.5");
  });

  it("gives back an OAuth sign-in, and sends empty client fields as none for the studio to fill (R-mcp-oauth-connect)", () => {
    const signedIn = { ...httpRow, transport: { type: "http" as const, url: httpRow.transport.url, headers: {}, auth: { type: "oauth" as const, clientId: "quiver", clientSecret: "${CLIENT_SECRET}", scopes: ["tools", "read"] } } };
    expect(configOf(formOf(signedIn))).toEqual(signedIn);
    const form = { ...emptyForm(), name: "x", transport: "http" as const, url: "https://x.test/mcp", oauth: true, clientId: " ", scopes: "  a  b " };
    expect(configOf(form).transport).toEqual({ type: "http", url: "https://x.test/mcp", headers: {}, auth: { type: "oauth", clientId: null, clientSecret: null, scopes: ["a", "b"] } });
    expect(placeOf("transport.auth")).toBe("auth");
    expect(placeOf("server.transport.auth.clientSecret")).toBe("clientSecret");
    expect(placeOf("transport.auth.scopes")).toBe("scopes");
  });

  it("leaves out blank argument lines and empty rows, and keeps no working folder as null", () => {
    const form = { ...emptyForm(), name: "x", command: " npx ", args: "-y\n\n@scope/server\r\n", env: [{ key: " A ", value: "1" }, { key: "", value: "" }] };
    expect(configOf(form)).toEqual({
      name: "x",
      description: "",
      idleStopS: 600,
      transport: { type: "stdio", command: "npx", args: ["-y", "@scope/server"], cwd: null, env: { A: "1" } },
    });
  });

  it("finds a key given twice, a value with no key, and an idle time that is not a number before asking the studio", () => {
    const form = { ...emptyForm(), idleMinutes: "soon", env: [{ key: "A", value: "1" }, { key: "A", value: "2" }, { key: "", value: "orphan" }] };
    expect(localProblems(form).map((p) => p.path)).toEqual(["idleStopS", "transport.env.A", "transport.env"]);
    expect(localProblems({ ...emptyForm(), idleMinutes: "0" })).toEqual([]);
  });

  it("places the registry's paths and input validation's at their fields", () => {
    expect(placeOf("name")).toBe("name");
    expect(placeOf("idleStopS")).toBe("idle");
    expect(placeOf("transport.type")).toBe("transport");
    expect(placeOf("transport.command")).toBe("command");
    expect(placeOf("transport.args[2]")).toBe("args");
    expect(placeOf("server.transport.args.2")).toBe("args");
    expect(placeOf("transport.cwd")).toBe("cwd");
    expect(placeOf("transport.env")).toBe("env");
    expect(placeOf("transport.env.API_KEY")).toBe("env:API_KEY");
    expect(placeOf("server.transport.headers.X-Api-Key")).toBe("headers:X-Api-Key");
    expect(placeOf("transport.url")).toBe("url");
    expect(placeOf("")).toBe("other");
    const placed = placeProblems([
      { path: "transport.args[0]", message: "first" },
      { path: "transport.args[1]", message: "second" },
    ]);
    expect(placed.get("args")).toEqual(["first", "second"]);
  });
});
