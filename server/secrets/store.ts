// The secret store: create, rotate, delete and list. Write-only by construction: no function here returns a
// value or a ciphertext; the one way to read a value back is resolveSecrets (resolve.ts), at call time.
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { secrets, user } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import { encryptSecret, secretsKey } from "./crypto";
import { DESCRIPTION_MAX, secretNameProblem, secretValueProblem } from "./names";
import { allReferences, findReferences, type ReferenceSource, type SecretReference } from "./references";

/** What anyone may know about a secret: everything but its value. */
export type SecretInfo = {
  name: string;
  description: string;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
  lastUsedAt: Date | null;
};

export type SecretRow = SecretInfo & {
  /** The name of whoever set the current value, when that account still exists. */
  updatedByName: string | null;
  references: SecretReference[];
};

/** The columns that may leave the store: never `ciphertext`. */
const info = {
  name: secrets.name,
  description: secrets.description,
  createdBy: secrets.createdBy,
  updatedBy: secrets.updatedBy,
  createdAt: secrets.createdAt,
  updatedAt: secrets.updatedAt,
  lastUsedAt: secrets.lastUsedAt,
};

function checkName(name: string): void {
  const problem = secretNameProblem(name);
  if (problem) throw new DomainError("BAD_REQUEST", "BAD_NAME", problem, { field: "name" });
}

function checkValue(value: string): void {
  const problem = secretValueProblem(value);
  if (problem) throw new DomainError("BAD_REQUEST", "BAD_VALUE", problem, { field: "value" });
}

function checkDescription(description: string): void {
  if (description.length > DESCRIPTION_MAX) {
    throw new DomainError("BAD_REQUEST", "BAD_DESCRIPTION", `A description has at most ${DESCRIPTION_MAX} characters; shorten it.`, {
      field: "description",
    });
  }
}

function noSuchSecret(name: string): DomainError {
  return new DomainError("NOT_FOUND", "NO_SUCH_SECRET", `There is no secret named ${name}; it may have been deleted meanwhile.`, { name });
}

/** Every secret with who last set it and where in `sources` it is used, by name. */
export async function listSecrets(db: Db, sources: readonly ReferenceSource[]): Promise<SecretRow[]> {
  const [rows, references] = await Promise.all([
    db
      .select({ ...info, updatedByName: user.name })
      .from(secrets)
      .leftJoin(user, eq(user.id, secrets.updatedBy))
      .orderBy(asc(secrets.name)),
    allReferences(db, sources),
  ]);
  return rows.map((row) => ({ ...row, references: references.get(row.name) ?? [] }));
}

/** Names and descriptions only, for the pickers builders and developers use. */
export function secretNames(db: Db): Promise<Array<{ name: string; description: string }>> {
  return db.select({ name: secrets.name, description: secrets.description }).from(secrets).orderBy(asc(secrets.name));
}

export type NewSecret = { name: string; value: string; description?: string };

export async function createSecret(db: Db, actor: string, input: NewSecret, key: Buffer = secretsKey()): Promise<SecretInfo> {
  const description = (input.description ?? "").trim();
  checkName(input.name);
  checkValue(input.value);
  checkDescription(description);
  const [row] = await db
    .insert(secrets)
    .values({ name: input.name, description, ciphertext: encryptSecret(input.name, input.value, key), createdBy: actor, updatedBy: actor })
    .onConflictDoNothing({ target: secrets.name })
    .returning(info);
  if (!row) {
    throw new DomainError("CONFLICT", "SECRET_EXISTS", `A secret named ${input.name} already exists; rotate it to change its value.`, {
      name: input.name,
    });
  }
  await recordAudit(db, { actor, action: "secret.created", target: input.name });
  return row;
}

/** A new value for an existing secret; every reference to it uses the new value from the next call on. */
export async function rotateSecret(
  db: Db,
  actor: string,
  input: { name: string; value: string; description?: string },
  key: Buffer = secretsKey(),
): Promise<SecretInfo> {
  checkValue(input.value);
  const description = input.description?.trim();
  if (description !== undefined) checkDescription(description);
  const [row] = await db
    .update(secrets)
    .set({
      ciphertext: encryptSecret(input.name, input.value, key),
      updatedBy: actor,
      updatedAt: new Date(),
      ...(description !== undefined ? { description } : {}),
    })
    .where(eq(secrets.name, input.name))
    .returning(info);
  if (!row) throw noSuchSecret(input.name);
  await recordAudit(db, { actor, action: "secret.rotated", target: input.name });
  return row;
}

/** Deletes a secret nothing in `sources` references; while anything does, refuses and says what. */
export async function deleteSecret(db: Db, actor: string, name: string, sources: readonly ReferenceSource[]): Promise<{ name: string }> {
  const references = await findReferences(db, sources, name);
  if (references.length > 0) {
    const shown = references.slice(0, 3).map((r) => r.label);
    const more = references.length > 3 ? ` and ${references.length - 3} more` : "";
    throw new DomainError(
      "CONFLICT",
      "SECRET_IN_USE",
      `${name} is still used by ${shown.join(", ")}${more}; change ${references.length === 1 ? "it" : "them"} to use another secret first, then delete it.`,
      { name, references },
    );
  }
  const [row] = await db.delete(secrets).where(eq(secrets.name, name)).returning({ name: secrets.name });
  if (!row) throw noSuchSecret(name);
  await recordAudit(db, { actor, action: "secret.deleted", target: name });
  return row;
}
