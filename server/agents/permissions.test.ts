import { describe, expect, it } from "vitest";
import { effectivePermission, explainPermission, explicitPermission, mayRun, type PermissionLevel } from "./permissions";

const levels: PermissionLevel[] = ["ALLOW", "ASK", "DENY"];

describe("R-perm-explicit-beats-default: the operation's own level against the agent's default", () => {
  // Rows: how the operation was registered; columns: the agent's default.
  const table: Array<{ explicit: PermissionLevel | null; expected: Record<PermissionLevel, PermissionLevel> }> = [
    { explicit: null, expected: { ALLOW: "ALLOW", ASK: "ASK", DENY: "DENY" } },
    { explicit: "ALLOW", expected: { ALLOW: "ALLOW", ASK: "ALLOW", DENY: "ALLOW" } },
    { explicit: "ASK", expected: { ALLOW: "ASK", ASK: "ASK", DENY: "ASK" } },
    { explicit: "DENY", expected: { ALLOW: "DENY", ASK: "DENY", DENY: "DENY" } },
  ];
  for (const row of table) {
    for (const agentDefault of levels) {
      it(`${row.explicit ? `explicit ${row.explicit}` : "permission omitted"} under default ${agentDefault} is ${row.expected[agentDefault]}`, () => {
        expect(effectivePermission({ explicit: row.explicit, agentDefault }).level).toBe(row.expected[agentDefault]);
      });
    }
  }
});

describe("precedence beyond the table", () => {
  it("an override for the operation beats every row", () => {
    for (const explicit of [null, ...levels]) {
      for (const agentDefault of levels) {
        for (const override of levels) {
          expect(effectivePermission({ explicit, agentDefault, override })).toEqual({ level: override, from: "override" });
        }
      }
    }
  });

  it("an explicit permission beats the agent's default", () => {
    expect(effectivePermission({ explicit: "ALLOW", agentDefault: "DENY" })).toEqual({ level: "ALLOW", from: "explicit" });
  });

  it("DENY blocks a call even against an earlier session grant", () => {
    expect(mayRun({ explicit: "DENY", agentDefault: "ALLOW", sessionGrant: true }).action).toBe("refuse");
    expect(mayRun({ agentDefault: "DENY", sessionGrant: true }).reason).toMatch(/earlier approval in this run does not lift/);
    expect(mayRun({ explicit: "ALLOW", agentDefault: "ALLOW", override: "DENY", sessionGrant: true }).action).toBe("refuse");
  });

  it("a session grant satisfies ASK without another prompt", () => {
    expect(mayRun({ explicit: "ASK", agentDefault: "ALLOW", sessionGrant: true }).action).toBe("run");
    expect(mayRun({ agentDefault: "ASK", sessionGrant: true }).action).toBe("run");
  });

  it("ASK without a grant asks", () => {
    expect(mayRun({ explicit: "ASK", agentDefault: "ALLOW" })).toMatchObject({ action: "ask", level: "ASK" });
  });

  it("ASK where nobody can approve is refused rather than run", () => {
    expect(mayRun({ explicit: "ASK", agentDefault: "ALLOW", canAsk: false }).action).toBe("refuse");
  });

  it("ALLOW runs", () => {
    expect(mayRun({ agentDefault: "ALLOW" }).action).toBe("run");
  });
});

describe("what an operation was registered with", () => {
  it("ask_user is registered with ALLOW, whatever the agent's default (R-perm-ask-user-allowed)", () => {
    const explicit = explicitPermission("system:ask_user", "ask_user", {});
    expect(effectivePermission({ explicit, agentDefault: "DENY" }).level).toBe("ALLOW");
  });

  it("the builder's own setting still beats that registration", () => {
    expect(explicitPermission("system:ask_user", "ask_user", { ask_user: "DENY" })).toBe("DENY");
  });

  it("other operations have no registration of their own", () => {
    expect(explicitPermission("system:web", "fetch_url", {})).toBeNull();
  });
});

describe("the line beside the Approval control", () => {
  it("says when the agent's default applies", () => {
    expect(explainPermission({ agentDefault: "ASK" })).toBe("Asks you first, each time, unless you approve it for the rest of the run. (This agent's default: Ask me.)");
  });

  it("says what an explicit Never means", () => {
    expect(explainPermission({ explicit: "DENY", agentDefault: "ALLOW" })).toMatch(/^Never runs, even if approved earlier/);
  });
});
