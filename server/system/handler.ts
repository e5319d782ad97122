// What every built-in handler shares: the three ways a call ends, and reading the arguments the runtime has
// already validated against the schema. Edit when a handler needs a new kind of argument or ending.
import type { SystemContext, SystemHandler, SystemResult } from "./types";

export const ok = (text: string): SystemResult => ({ text, outcome: "ok" });
export const refused = (text: string): SystemResult => ({ text, outcome: "refused" });
export const failed = (text: string): SystemResult => ({ text, outcome: "failed" });

/** Thrown deep inside a handler to refuse the call: nothing happened, and the sentence says what to do instead. */
export class Refusal extends Error {}

/** Thrown to fail the call with a sentence of our own rather than the system's words. */
export class Failure extends Error {}

const ERRNO: Record<string, string> = {
  ENOENT: "it does not exist",
  EACCES: "permission was denied",
  EPERM: "permission was denied",
  ENOSPC: "the disk is full",
  EISDIR: "it is a folder",
  ENOTDIR: "a part of the path is a file, not a folder",
  ELOOP: "it is a symbolic link, which is not followed",
  EEXIST: "it already exists",
  ENOTEMPTY: "the folder is not empty",
  EROFS: "the file system is read-only",
};

/**
 * A thrown error as the model reads it: `<Type>: <message>` (R-result-exception), except the system's own errors, whose
 * messages carry absolute paths of the studio's machine: those say what happened and not where.
 */
export function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return `${code}: ${ERRNO[code] ?? "the system refused the operation"}.`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** A handler whose Refusal becomes a refusal and any other error a failure, so the runtime always gets a result. */
export function handler(run: (args: Record<string, unknown>, ctx: SystemContext) => Promise<SystemResult | string>): SystemHandler {
  return async (args, ctx) => {
    try {
      const result = await run(args, ctx);
      return typeof result === "string" ? ok(result) : result;
    } catch (error) {
      if (error instanceof Refusal) return refused(error.message);
      if (error instanceof Failure) return failed(error.message);
      return failed(describeError(error));
    }
  };
}

export function text(args: Record<string, unknown>, key: string, fallback?: string): string {
  const value = args[key] ?? fallback;
  if (typeof value !== "string") throw new Refusal(`${key} must be a string.`);
  return value;
}

export function flag(args: Record<string, unknown>, key: string): boolean {
  return args[key] === true;
}

/** An integer argument clamped to [min, max]; the schema's default when it is missing. */
export function integer(args: Record<string, unknown>, key: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const value = args[key];
  const n = typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : fallback;
  return Math.min(max, Math.max(min, n));
}

/** A positive integer setting (a limit the builder set), or its default. */
export function limit(settings: Record<string, unknown>, key: string, fallback: number): number {
  const value = settings[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** 1234567 → "1,234,567": sizes and counts the model reads. */
export const count = (n: number) => n.toLocaleString("en-US");
