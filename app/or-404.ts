// For the pages whose address names a row (an agent, a run): an id that cannot name one is a 404 before any query,
// and so is a row the server does not find; any other failure is a real error and stays one.
import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** The id, or the 404 page when it is not one. */
export function idOr404(value: string): string {
  if (!isId(value)) notFound();
  return value;
}

/** What `read` answers, or the 404 page when the server says there is no such row. */
export async function foundOr404<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof TRPCError && err.code === "NOT_FOUND") notFound();
    throw err;
  }
}
