// How the studio writes a moment, the same on every page: English like the rest of the interface, each format made
// once for the whole bundle (building an Intl.DateTimeFormat costs far more than using one).
type Moment = Date | string | number;

const formats = {
  /** "Dec 1, 2026, 7:13 AM": when something was saved, changed, used or run. */
  dateTime: new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }),
  /** "Dec 1, 2026": since when an account exists. */
  date: new Intl.DateTimeFormat("en", { dateStyle: "medium" }),
  /** "Dec 1, 2026, 7:13:05 AM": the audit log, where events a second apart must read apart. */
  seconds: new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium" }),
};

export type DateFormat = keyof typeof formats;

export function formatDate(at: Moment, format: DateFormat = "dateTime"): string {
  return formats[format].format(new Date(at));
}
