// system:memory: a small key-value store kept per agent, across runs (table agent_memory), so an agent can remember
// what it learned. Edit the limits here; the declaration below tells the model the same figures.
import { and, asc, eq, sql } from "drizzle-orm";
import { agentMemory } from "@/db/schema";
import { count, Failure, handler, Refusal, text } from "./handler";
import { inputs, operation, type SystemSource } from "./types";

export const MAX_VALUE_CHARS = 10_000;
export const MAX_LISTED = 200;

const keyOf = (args: Record<string, unknown>) => {
  const key = text(args, "key");
  if (key.length < 1 || key.length > 200) throw new Refusal("A key is 1 to 200 characters, such as customer.timezone.");
  return key;
};

const mine = (agentId: string, key: string) => and(eq(agentMemory.agentId, agentId), eq(agentMemory.key, key));

const memoryGet = handler(async (args, ctx) => {
  const key = keyOf(args);
  const [row] = await ctx.db.select({ value: agentMemory.value }).from(agentMemory).where(mine(ctx.agentId, key));
  if (row) return typeof row.value === "string" ? row.value : JSON.stringify(row.value);
  const some = await ctx.db.select({ key: agentMemory.key }).from(agentMemory).where(eq(agentMemory.agentId, ctx.agentId)).orderBy(asc(agentMemory.key)).limit(10);
  const known = some.length ? `; keys that exist include ${some.map((r) => r.key).join(", ")}` : "; nothing is remembered yet";
  throw new Failure(`Nothing is remembered under ${key}${known}. memory_list shows them all.`);
});

const memorySet = handler(async (args, ctx) => {
  const key = keyOf(args);
  const value = text(args, "value");
  if (value.length > MAX_VALUE_CHARS) {
    throw new Refusal(`The value is ${count(value.length)} characters, over the ${count(MAX_VALUE_CHARS)} one key may hold; keep a summary, or split it over several keys.`);
  }
  await ctx.db
    .insert(agentMemory)
    .values({ agentId: ctx.agentId, key, value })
    .onConflictDoUpdate({ target: [agentMemory.agentId, agentMemory.key], set: { value, updatedAt: new Date() } });
  return `Remembered ${key}.`;
});

const memoryList = handler(async (args, ctx) => {
  const prefix = text(args, "prefix", "");
  const where = prefix ? and(eq(agentMemory.agentId, ctx.agentId), sql`starts_with(${agentMemory.key}, ${prefix})`) : eq(agentMemory.agentId, ctx.agentId);
  const rows = await ctx.db.select({ key: agentMemory.key }).from(agentMemory).where(where).orderBy(asc(agentMemory.key)).limit(MAX_LISTED + 1);
  if (rows.length === 0) return prefix ? `No keys start with ${prefix}.` : "Nothing is remembered yet.";
  const keys = rows.slice(0, MAX_LISTED).map((r) => r.key);
  if (rows.length > MAX_LISTED) keys.push(`(more keys not shown; list them by a longer prefix)`);
  return keys.join("\n");
});

const memoryDelete = handler(async (args, ctx) => {
  const key = keyOf(args);
  const gone = await ctx.db.delete(agentMemory).where(mine(ctx.agentId, key)).returning({ key: agentMemory.key });
  return gone.length ? `Forgot ${key}.` : `Nothing was remembered under ${key}; there is nothing to forget.`;
});

const key = { type: "string", minLength: 1, maxLength: 200, description: "The fact's key, e.g. customer.timezone." };

export const memory: SystemSource = {
  name: "memory",
  title: "Memory",
  description: "Remember short facts between runs: a key-value store of this agent's own, shared by none other.",
  settings_schema: null,
  operations: [
    operation({
      name: "memory_get",
      title: "Recall a fact",
      description: "Answer the value remembered under one key; a key never set answers an error that lists a few keys that exist.",
      input_schema: inputs({ key }, ["key"]),
      risk: "read",
      read_only: true,
      capabilities: ["memory.read"],
    }),
    operation({
      name: "memory_set",
      title: "Remember a fact",
      description: "Remember one value under a key, replacing what the key held before; refuses values over 10,000 characters.",
      input_schema: inputs({ key, value: { type: "string", description: "What to remember." } }, ["key", "value"]),
      risk: "write",
      capabilities: ["memory.write"],
    }),
    operation({
      name: "memory_list",
      title: "List remembered facts",
      description: "List the keys this agent remembers, optionally only those starting with a prefix, sorted, at most 200.",
      input_schema: inputs({ prefix: { type: "string", default: "", description: "Only keys that start with this." } }),
      risk: "read",
      read_only: true,
      capabilities: ["memory.read"],
    }),
    operation({
      name: "memory_delete",
      title: "Forget a fact",
      description: "Forget the value under one key; a key never set is not an error.",
      input_schema: inputs({ key }, ["key"]),
      risk: "write",
      destructive: true,
      capabilities: ["memory.write"],
    }),
  ],
  handlers: { memory_get: memoryGet, memory_set: memorySet, memory_list: memoryList, memory_delete: memoryDelete },
};
