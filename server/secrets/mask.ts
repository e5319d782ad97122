// Masking: every secret value that reached a tool is shown as *** in whatever the studio shows or keeps
// afterwards. A value is looked for as itself and in the forms tools print it in: base64 (standard and URL-safe,
// padded or not, and inside a longer base64 text such as a Basic auth header), URL-encoded (as encodeURIComponent,
// encodeURI, form encoding with +, and Python's quote and quote_plus write it, hex in either case) and escaped
// inside a JSON string (as JSON.stringify and Python's json.dumps write it). The forms are plain strings, so a
// long value (a 64 KB key) costs time in proportion to its length and meets no pattern-size limit.
//
// Short values: a value of fewer than MASK_FROM (4) characters is masked only where a whole string is the value
// (or one of its forms) — masking "ok" or "42" inside every sentence would hide ordinary words and numbers, and
// tell a reader what the value is. The tool host follows the same rule. The empty string is never masked.

export const MASK = "***";
export const MASK_FROM = 4;

/** Masks text; `.deep` masks every string (keys included) inside arrays and plain objects. */
export type Masker = ((text: string) => string) & {
  deep<T>(value: T): T;
  /** Whether there is anything to mask at all. */
  readonly active: boolean;
};

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** What each common URL encoder leaves as it is, and whether it writes a space as +. */
const ENCODERS: Array<{ keep: Set<string>; plus: boolean }> = [
  { keep: ALNUM + "-_.!~*'()", plus: false }, // encodeURIComponent
  { keep: ALNUM + ";,/?:@&=+$-_.!~*'()#", plus: false }, // encodeURI
  { keep: ALNUM + "*-._", plus: true }, // form encoding (URLSearchParams, HTML forms)
  { keep: ALNUM + "_.-~", plus: false }, // Python's quote(safe=""), RFC 3986
  { keep: ALNUM + "_.-~", plus: true }, // Python's quote_plus
  { keep: ALNUM + "_.-~/", plus: false }, // Python's quote
].map(({ keep, plus }) => ({ keep: new Set(keep), plus }));

const escapes = new Map<string, string>();

/** "%E2%9C%93" for "✓": the UTF-8 bytes of one character. */
function escapeOf(ch: string): string {
  let escape = escapes.get(ch);
  if (escape === undefined) {
    escape = [...Buffer.from(ch, "utf8")].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
    escapes.set(ch, escape);
  }
  return escape;
}

function percentEncode(text: string, keep: Set<string>, spaceAsPlus: boolean): string {
  const parts: string[] = [];
  for (const ch of text) parts.push(keep.has(ch) ? ch : spaceAsPlus && ch === " " ? "+" : escapeOf(ch));
  return parts.join("");
}

/** Every encoder's form, with its hex in capitals and in small letters. */
function urlForms(text: string): string[] {
  return ENCODERS.flatMap(({ keep, plus }) => {
    const upper = percentEncode(text, keep, plus);
    return [upper, upper.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())];
  });
}

/** Inside a JSON string: as JSON.stringify writes it, as Python's json.dumps does (\uXXXX), and with \/. */
function jsonForms(text: string): string[] {
  const js = JSON.stringify(text).slice(1, -1);
  const ascii = (lower: boolean) =>
    js.replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`[lower ? "toLowerCase" : "toUpperCase"]().replace("\\U", "\\u"));
  return [js, ascii(true), ascii(false)].flatMap((form) => [form, form.replace(/\//g, "\\/")]);
}

const urlSafe = (b64: string) => b64.replace(/\+/g, "-").replace(/\//g, "_");

/**
 * The part of a base64 text that depends on the value alone when it sits at each byte offset (0, 1, 2) of a longer
 * encoded text, as the password does in base64("user:password").
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const core = b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length >= MASK_FROM) cores.push(core);
  }
  return cores;
}

/** The value and every form of it to look for, longest first so a whole form wins over a part of it. */
function formsOf(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const b64 = bytes.toString("base64");
  const bare = b64.replace(/=+$/, "");
  const encodings = [value, b64, bare, urlSafe(b64), urlSafe(bare)];
  for (const core of base64Cores(bytes)) encodings.push(core, urlSafe(core));
  const forms = new Set(encodings.flatMap((form) => [form, ...urlForms(form), ...jsonForms(form)]));
  return [...forms].filter((form) => form.length > 0);
}

export function makeMasker(values: Iterable<string>): Masker {
  const unique = [...new Set(values)].filter((value) => value.length > 0);
  // Plain substrings, not one regular expression: a value may be a 64 KB key, and no pattern size or
  // backtracking limit should decide whether it is masked.
  const anywhere = [...new Set(unique.filter((value) => value.length >= MASK_FROM).flatMap(formsOf))].sort((a, b) => b.length - a.length);
  const whole = new Set(unique.filter((value) => value.length < MASK_FROM).flatMap(formsOf));

  const mask = ((text: string) => {
    if (typeof text !== "string" || text.length === 0) return text;
    if (whole.has(text)) return MASK;
    let out = text;
    for (const form of anywhere) if (out.includes(form)) out = out.split(form).join(MASK);
    return out;
  }) as Masker;

  function deep<T>(value: T): T {
    if (typeof value === "string") return mask(value) as T;
    if (Array.isArray(value)) return value.map((item) => deep(item)) as T;
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [mask(key), deep(item)])) as T;
    }
    return value;
  }

  return Object.assign(mask, { deep, active: unique.length > 0 });
}
