// The home page's checklist for a new studio (R-start-steps): five steps, each done by a fact of the database, so a
// step is done for everyone once anyone did it, and nothing is stored about the list itself. Each step concerns the
// roles that can do it; the list is gone for a person once every step of theirs is done (R-start-gone).
import { and, count, desc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, audit, modelConnections, runs, treeVersions, user, type Role } from "@/db/schema";
import { hasRole } from "@/server/auth/roles";

export type StepId = "connect-model" | "first-agent" | "first-run" | "invite-team" | "first-tool";

export type Step = {
  id: StepId;
  title: string;
  /** What to do, in a sentence. */
  text: string;
  /** Where it is done, and the link's words. */
  href: string;
  action: string;
  /** The least role that can do it: admins see every step, builders theirs. */
  role: Role;
  done: boolean;
};

export type Checklist = {
  /** The viewer's steps, in the order a new studio takes them. */
  steps: Step[];
  /** Every one of the viewer's steps is done: home shows the list no longer. */
  done: boolean;
};

/** A person's saves and new files in the tree (written by tools.file.save and .create), which a start-up never writes. */
export const TOOL_FILE_ACTIONS = ["tool_file.saved", "tool_file.created"] as const;

async function facts(db: Db) {
  const [connections, latestAgent, answered, people, published, written] = await Promise.all([
    db.select({ n: count() }).from(modelConnections),
    db.select({ id: agents.id }).from(agents).orderBy(desc(agents.createdAt)).limit(1),
    db.select({ id: runs.id }).from(runs).where(eq(runs.status, "done")).limit(1),
    db.select({ n: count() }).from(user),
    db.select({ n: treeVersions.number }).from(treeVersions).limit(1),
    db.select({ id: audit.id }).from(audit).where(and(inArray(audit.action, [...TOOL_FILE_ACTIONS]), ne(audit.actor, "studio"))).limit(1),
  ]);
  return {
    connected: (connections[0]?.n ?? 0) > 0,
    latestAgent: latestAgent[0]?.id ?? null,
    ran: answered.length > 0,
    team: (people[0]?.n ?? 0) > 1,
    tool: published.length > 0 || written.length > 0,
  };
}

export async function checklist(db: Db, viewer: { role: Role }): Promise<Checklist> {
  const f = await facts(db);
  const all: Step[] = [
    {
      id: "connect-model",
      title: "Connect a model",
      text: "Tell the studio which model its agents use (OpenAI, Anthropic, or a server such as Ollama), and test it.",
      href: "/settings/models",
      action: "Open Settings → Models",
      role: "admin",
      done: f.connected,
    },
    {
      id: "first-agent",
      title: "Create your first agent",
      text: "Start from a template in New agent, then adjust what it may use and what asks you first.",
      href: "/agents?new=1",
      action: "Choose a template",
      role: "builder",
      done: f.latestAgent !== null,
    },
    {
      id: "first-run",
      title: "Run it",
      text: "Send your agent a message in the playground: its tool calls and its answer appear as they happen.",
      href: f.latestAgent ? `/agents/${f.latestAgent}/run` : "/agents",
      action: f.latestAgent ? "Open the playground" : "Find your agent",
      role: "builder",
      done: f.ran,
    },
    {
      id: "invite-team",
      title: "Invite your team",
      text: "Add the people who compose agents or write tools, each with the role they need.",
      href: "/settings/users",
      action: "Open Settings → Users",
      role: "admin",
      done: f.team,
    },
    {
      id: "first-tool",
      title: "Write your first tool",
      text: "Write a Python function in a tool file and save it: the editor shows what the model will see as you type.",
      href: "/tools",
      action: "Open the tool editor",
      role: "developer",
      done: f.tool,
    },
  ];
  const steps = all.filter((step) => hasRole(viewer, step.role));
  return { steps, done: steps.every((step) => step.done) };
}
