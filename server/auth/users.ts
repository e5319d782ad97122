// People and their roles: the owner made on first start, users an admin adds, roles, disabling.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { roles, session, user, type Role } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { getAuth } from "./auth";
import { userCount } from "./user-count";

export type UserRow = { id: string; name: string; email: string; role: Role; disabled: boolean; createdAt: Date };

/** Creates an account through better-auth (which hashes the password), then gives it its role. */
export async function createUser(
  db: Db,
  input: { email: string; name: string; password: string; role: Role },
  actor: string,
): Promise<UserRow> {
  const auth = await getAuth();
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (existing) throw new DomainError("CONFLICT", "EMAIL_TAKEN", `${email} already has an account.`);
  let created: { user: { id: string } };
  try {
    created = await auth.api.signUpEmail({ body: { email, name: input.name.trim(), password: input.password } });
  } catch (err) {
    throw new DomainError("BAD_REQUEST", "SIGN_UP_REFUSED", (err as Error).message || "The account could not be created.");
  }
  const [row] = await db.update(user).set({ role: input.role }).where(eq(user.id, created.user.id)).returning();
  await recordAudit(db, { actor, action: "user.created", target: created.user.id, detail: { email, role: input.role } });
  return toRow(row!);
}

/** The first account of a studio: only while there is none, and it is an admin. */
export async function createOwner(db: Db, input: { email: string; name: string; password: string }): Promise<UserRow> {
  if ((await userCount(db)) > 0) {
    throw new DomainError("CONFLICT", "OWNER_EXISTS", "This studio already has an owner; sign in, or ask an admin for an account.");
  }
  return createUser(db, { ...input, role: "admin" }, "studio");
}

export async function listUsers(db: Db): Promise<UserRow[]> {
  const rows = await db.select().from(user).orderBy(user.createdAt);
  return rows.map(toRow);
}

async function adminsLeft(db: Db, except: string): Promise<number> {
  const rows = await db.select({ id: user.id, role: user.role, disabled: user.disabled }).from(user);
  return rows.filter((r) => r.id !== except && r.role === "admin" && !r.disabled).length;
}

export async function setRole(db: Db, id: string, role: Role, actor: string): Promise<UserRow> {
  if (!roles.includes(role)) throw new DomainError("BAD_REQUEST", "BAD_ROLE", `Roles are ${roles.join(", ")}.`);
  if (role !== "admin" && (await adminsLeft(db, id)) === 0) {
    throw new DomainError("CONFLICT", "LAST_ADMIN", "This is the last admin: make someone else an admin first.");
  }
  const [row] = await db.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, id)).returning();
  if (!row) throw new DomainError("NOT_FOUND", "NO_USER", "There is no such user.");
  await recordAudit(db, { actor, action: "user.role_changed", target: id, detail: { role } });
  return toRow(row);
}

/** A disabled account cannot sign in, and its open sessions end at once. */
export async function setDisabled(db: Db, id: string, disabled: boolean, actor: string): Promise<UserRow> {
  if (disabled && id === actor) throw new DomainError("CONFLICT", "SELF", "You cannot disable your own account.");
  if (disabled && (await adminsLeft(db, id)) === 0) {
    throw new DomainError("CONFLICT", "LAST_ADMIN", "This is the last admin: make someone else an admin first.");
  }
  const [row] = await db.update(user).set({ disabled, updatedAt: new Date() }).where(eq(user.id, id)).returning();
  if (!row) throw new DomainError("NOT_FOUND", "NO_USER", "There is no such user.");
  if (disabled) await db.delete(session).where(eq(session.userId, id));
  await recordAudit(db, { actor, action: disabled ? "user.disabled" : "user.enabled", target: id });
  return toRow(row);
}

function toRow(row: typeof user.$inferSelect): UserRow {
  return { id: row.id, name: row.name, email: row.email, role: row.role, disabled: row.disabled, createdAt: row.createdAt };
}
