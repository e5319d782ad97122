// Text PostgreSQL cannot hold (R-input-text, R-args-nul): text and jsonb have no U+0000, and UTF-8 has no form for
// half a surrogate pair. Text a person sends is refused at the edge; text the studio must keep as it came (what a
// model sent, what a tool answered) is stored escaped by toStored and read back whole by fromStored.
//
// The escape: a string that needs it becomes U+FDD0 (a noncharacter, reserved for a program's internal use, so no
// real text starts with it) followed by the string with `\` written `\\`, U+0000 written `\0` and a lone surrogate
// written `\uXXXX`. A string that starts with U+FDD0 itself is escaped too, so every string reads back as it was.

const MARK = "\uFDD0";

/** Half of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** What is wrong with text PostgreSQL cannot hold, and how to fix it; or null. */
export function textFault(value: string): { what: string; fix: string } | null {
  const nul = value.indexOf("\u0000");
  const lone = value.search(LONE_SURROGATE);
  if (nul < 0 && lone < 0) return null;
  if (nul >= 0 && (lone < 0 || nul < lone)) return { what: `contains a NUL character (U+0000) at character ${nul + 1}`, fix: "remove it" };
  const unit = value.charCodeAt(lone).toString(16).toUpperCase();
  return {
    what: `contains a lone surrogate (U+${unit}) at character ${lone + 1}, half of a character whose other half is missing`,
    fix: "remove it or write the whole character",
  };
}

type Place = { value: unknown; key: PropertyKey | null; parent: Place | null };

function pathOf(place: Place): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Place | null = place; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first string (value or key) in a JSON value that PostgreSQL cannot hold, with where it is: for a key, the
 * object holding it. Iterative, each place linked to its parent, so a value nested a hundred thousand deep costs
 * neither stack nor a copied path per level.
 */
export function jsonTextFault(value: unknown): { path: PropertyKey[]; key: string | null; what: string; fix: string } | null {
  const stack: Place[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const item = place.value;
    if (typeof item === "string") {
      const fault = textFault(item);
      if (fault) return { path: pathOf(place), key: null, ...fault };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], key: i, parent: place });
    } else if (item !== null && typeof item === "object") {
      const entries = Object.entries(item);
      for (const [key] of entries) {
        const fault = textFault(key);
        if (fault) return { path: pathOf(place), key, ...fault };
      }
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: place });
    }
  }
  return null;
}

function escapeText(text: string): string {
  if (!text.startsWith(MARK) && text.indexOf("\u0000") < 0 && !LONE_SURROGATE.test(text)) return text;
  const body = text
    .replace(/\\/g, "\\\\")
    .replace(/\u0000/g, "\\0")
    .replace(LONE_SURROGATES, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return MARK + body;
}

function unescapeText(text: string): string {
  if (!text.startsWith(MARK)) return text;
  return text.slice(MARK.length).replace(/\\(\\|0|u[0-9a-f]{4})/g, (_, escape: string) => {
    if (escape === "\\") return "\\";
    if (escape === "0") return "\u0000";
    return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
  });
}

/** Every string (and key) of plain objects and arrays through `change`; the value itself when nothing changed. */
function mapStrings<T>(value: T, change: (text: string) => string): T {
  if (typeof value === "string") return change(value) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((item, i) => {
      const next = mapStrings(item, change);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return (copy ?? value) as T;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const [k, v] = [change(key), mapStrings(item, change)];
      if (k !== key || v !== item) changed = true;
      return [k, v] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}

/** A value PostgreSQL can hold, that fromStored turns back into `value` exactly. */
export function toStored<T>(value: T): T {
  return mapStrings(value, escapeText);
}

/** What toStored was given. Values stored before the escape existed read back unchanged. */
export function fromStored<T>(value: T): T {
  return mapStrings(value, unescapeText);
}
