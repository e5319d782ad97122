// How a call's `${NAME}` settings get their values, and how often their use is recorded: a call by hand (Try it)
// resolves for itself and records one `secret.used` row per secret; a run resolves each secret once per segment
// (from its start or resume until it waits on a person or ends) and records each secret's use once per run, in
// one INSERT for the secrets first used together. Every value resolved joins the masker of what it was used for
// (R-secret-reference, R-secret-mask). Edit when a new caller needs another lifetime for its values.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { audit } from "@/db/schema";
import { makeMasker, type Masker } from "@/server/secrets/mask";
import { referencedNames } from "@/server/secrets/names";
import { decryptSecrets, recordSecretUse, resolveSettings, substitute, type SecretUse } from "@/server/secrets/resolve";

export type Settled = { settings: Record<string, unknown>; mask: Masker };

/** Where a call's settings get their secrets from. */
export type SecretScope = {
  /**
   * The settings with every `${NAME}` replaced by its value, and the masker that hides every value given out.
   * An unknown or unreadable secret throws its DomainError, before anything is called.
   */
  settle(settings: Record<string, unknown>, tool: string): Promise<Settled>;
};

/** One call's own secrets (Try it): resolved for it alone, one `secret.used` row per secret for the call. */
export function callSecrets(db: Db, use: Omit<SecretUse, "tool">, key?: Buffer): SecretScope {
  return {
    async settle(settings, tool) {
      const resolved = await resolveSettings(db, settings, { ...use, tool }, key);
      return { settings: resolved.settings, mask: makeMasker(resolved.values) };
    },
  };
}

/** A run's secrets: each decrypted once per segment, each use recorded once per run. */
export class SegmentSecrets implements SecretScope {
  /** This segment's values by name, or the decryption under way. */
  private segment = new Map<string, Promise<string>>();
  /** The names whose use this run has recorded; read from the audit table once, for a run rebuilt from its events. */
  private recorded: Promise<Set<string>> | null = null;
  private readonly given = new Set<string>();
  private masker: Masker = makeMasker([]);

  constructor(
    private readonly db: Db,
    private readonly use: { actor: string; run: string },
    private readonly key?: Buffer,
  ) {}

  /** Masks every value this run has been given so far. */
  get mask(): Masker {
    return this.masker;
  }

  /** The run waits on a person or ends: the next use decrypts afresh, so a rotation meanwhile is seen. */
  endSegment(): void {
    this.segment = new Map();
  }

  /** The named secrets' values; `tool` is what the use is recorded for when it is the run's first. */
  async values(names: Iterable<string>, tool: string): Promise<Map<string, string>> {
    const wanted = [...new Set(names)];
    // This call's segment, even if the run starts waiting (and a new segment begins) while it decrypts.
    const segment = this.segment;
    const missing = wanted.filter((name) => !segment.has(name));
    if (missing.length > 0) {
      const decrypting = decryptSecrets(this.db, missing, this.key);
      for (const name of missing) {
        const value = decrypting.then((values) => values.get(name)!);
        value.catch(() => undefined); // awaited by whoever needs it; a refusal is thrown to them, not left unhandled
        segment.set(name, value);
      }
      // A refused decryption is not kept: the next call asks again (an admin may have created the secret).
      decrypting.catch(() => {
        for (const name of missing) segment.delete(name);
      });
      await decrypting;
      await this.record(missing, tool);
    }
    const values = new Map<string, string>();
    for (const name of wanted) values.set(name, await segment.get(name)!);
    this.give(values.values());
    return values;
  }

  async settle(settings: Record<string, unknown>, tool: string): Promise<Settled> {
    const names = referencedNames(settings);
    if (names.size === 0) return { settings, mask: this.masker };
    const values = await this.values(names, tool);
    return { settings: substitute(settings, values) as Record<string, unknown>, mask: this.masker };
  }

  /** Values given out elsewhere for this run (an MCP server's resolved row), masked from now on like its own. */
  learn(values: Iterable<string>): void {
    this.give(values);
  }

  private give(values: Iterable<string>): void {
    let added = false;
    for (const value of values) {
      if (value && !this.given.has(value)) {
        this.given.add(value);
        added = true;
      }
    }
    if (added) this.masker = makeMasker(this.given);
  }

  private async record(names: string[], tool: string): Promise<void> {
    this.recorded ??= this.recordedBefore();
    const recorded = await this.recorded;
    const fresh = names.filter((name) => !recorded.has(name));
    if (fresh.length === 0) return;
    // Marked before the INSERT so a concurrent call does not record them too; unmarked again if it fails.
    for (const name of fresh) recorded.add(name);
    try {
      await recordSecretUse(this.db, fresh, { actor: this.use.actor, via: "run", tool, run: this.use.run });
    } catch (err) {
      for (const name of fresh) recorded.delete(name);
      throw err;
    }
  }

  /** The secrets an earlier segment of this run (in this process or a previous one) already recorded. */
  private async recordedBefore(): Promise<Set<string>> {
    const rows = await this.db
      .select({ target: audit.target })
      .from(audit)
      .where(and(eq(audit.action, "secret.used"), sql`${audit.detail}->>'run' = ${this.use.run}`));
    return new Set(rows.flatMap((row) => (row.target === null ? [] : [row.target])));
  }
}
