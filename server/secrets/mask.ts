// Masking: every secret value that reached a tool is shown as *** in whatever the studio shows or keeps
// afterwards. A value is looked for as itself and in the forms tools print it in: base64 (standard and URL-safe,
// padded or not, and inside a longer base64 text such as a Basic auth header), URL-encoded (as encodeURIComponent,
// encodeURI, form encoding with +, and Python's quote and quote_plus write it, hex in either case), hex (its UTF-8
// bytes, in small letters or capitals, also inside a longer hex text) and escaped inside a JSON string (as
// JSON.stringify, Python's json.dumps with or without ensure_ascii, PHP's \/ and Go's \u003c write it, and once
// more for a JSON text inside a JSON string). The forms are plain strings, so a long value (a 64 KB key) costs time
// in proportion to its length and meets no pattern-size limit.
//
// Short values: a value of fewer than MASK_FROM (4) characters is masked only where a whole string is the value
// (or one of its forms) — masking "ok" or "42" inside every sentence would hide ordinary words and numbers, and
// tell a reader what the value is. The tool host follows the same rule. The empty string is never masked.
// The tool host looks for the same forms (server/toolhost/quiverhost/masking.py): a new form goes in both.

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

/** Inside a JSON string as JSON.stringify writes it, which Python's json.dumps(ensure_ascii=False) matches. */
const jsonOf = (text: string) => JSON.stringify(text).slice(1, -1);

/** What json.dumps writes by default (ensure_ascii): every unit outside printable ASCII as \uXXXX, small letters. */
const asciiOf = (text: string, upper = false) =>
  jsonOf(text).replace(/[^\x20-\x7e]/g, (unit) => {
    const hex = unit.charCodeAt(0).toString(16).padStart(4, "0");
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });

/** Go's encoding/json escapes these too, so that its JSON is safe inside HTML. */
const HTML_SAFE: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/**
 * Inside a JSON string: as JSON.stringify and json.dumps (either ensure_ascii) write it, hex in capitals, with \/
 * (PHP), with Go's HTML-safe escapes, and escaped twice (a JSON text a tool returns inside its own JSON).
 */
function jsonForms(text: string): string[] {
  const once = [jsonOf(text), asciiOf(text), asciiOf(text, true)];
  const go = once[0]!.replace(/[<>&\u2028\u2029]/g, (ch) => HTML_SAFE[ch]!);
  const twice = [once[0]!, once[1]!].flatMap((form) => [jsonOf(form), asciiOf(form)]);
  return [...once.flatMap((form) => [form, form.replace(/\//g, "\\/")]), go, ...twice];
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
  const hex = bytes.toString("hex");
  const encodings = [value, b64, bare, urlSafe(b64), urlSafe(bare), hex, hex.toUpperCase()];
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
