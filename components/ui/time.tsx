// A moment on the page: read in the studio's format, with the exact instant for machines and screen readers.
import { formatDate, type DateFormat } from "./dates";

export function Time({ at, format = "dateTime" }: { at: Date | string | number; format?: DateFormat }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDate(at, format)}</time>;
}
