// What each role may do, in one place: each role includes every right of the roles after it.
import type { Role } from "@/db/schema";

const rank: Record<Role, number> = { admin: 3, developer: 2, builder: 1 };

/** Every role, most rights first: for the browser, which must not load the database schema to list them. */
export const ROLES: readonly Role[] = (Object.keys(rank) as Role[]).sort((a, b) => rank[b] - rank[a]);

export function hasRole(user: { role: Role } | null | undefined, needed: Role): boolean {
  return !!user && rank[user.role] >= rank[needed];
}

export const roleNames: Record<Role, string> = { admin: "Admin", developer: "Developer", builder: "Builder" };

export const roleDescriptions: Record<Role, string> = {
  admin: "Users, secrets and the audit log, and everything a developer may do.",
  developer: "Edits and publishes tools, and everything a builder may do.",
  builder: "Composes and runs agents; reads tools.",
};
