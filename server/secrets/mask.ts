// Masking: every secret value that reached a tool is shown as *** in whatever the studio shows or keeps
// afterwards. A value is found as itself and as the forms a tool is likely to print it in: base64 (standard and
// URL-safe, padded or not, and inside a longer base64 text such as a Basic auth header), URL-encoded
// (encodeURIComponent, form encoding with +, either hex case) and JSON-escaped (\" \\ \/ \n \uXXXX).
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

const JSON_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "/": "\\/",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** A hex digit in either case: %2f and %2F, \u00e9 and \u00E9. */
function hexDigit(digit: string): string {
  return /[a-f]/i.test(digit) ? `[${digit.toUpperCase()}${digit.toLowerCase()}]` : digit;
}

function hexPattern(hex: string): string {
  return [...hex].map(hexDigit).join("");
}

/** Every way one character of a value may appear in printed text. */
function charPattern(ch: string): string {
  const alternatives = new Set([escapeRegExp(ch)]);
  if (!/[A-Za-z0-9]/.test(ch)) {
    const bytes = [...Buffer.from(ch, "utf8")];
    alternatives.add(bytes.map((b) => `%${hexPattern(b.toString(16).padStart(2, "0"))}`).join(""));
  }
  if (ch === " ") alternatives.add("\\+");
  if (JSON_ESCAPES[ch]) alternatives.add(escapeRegExp(JSON_ESCAPES[ch]));
  if (ch < " " || ch > "~") {
    const units = [];
    for (let i = 0; i < ch.length; i++) units.push(`\\\\u${hexPattern(ch.charCodeAt(i).toString(16).padStart(4, "0"))}`);
    alternatives.add(units.join(""));
  }
  return alternatives.size === 1 ? [...alternatives][0]! : `(?:${[...alternatives].join("|")})`;
}

function tolerantPattern(form: string): string {
  return [...form].map(charPattern).join("");
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

/** The value and its encoded forms, longest first so a whole form wins over a part of it. */
function formsOf(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const b64 = bytes.toString("base64");
  const bare = b64.replace(/=+$/, "");
  const forms = [value, b64, bare, urlSafe(b64), urlSafe(bare)];
  for (const core of base64Cores(bytes)) forms.push(core, urlSafe(core));
  return [...new Set(forms)].filter((form) => form.length > 0);
}

export function makeMasker(values: Iterable<string>): Masker {
  const unique = [...new Set(values)].filter((value) => value.length > 0);
  const long = unique.filter((value) => value.length >= MASK_FROM);
  const short = unique.filter((value) => value.length < MASK_FROM);
  const anywhere = alternation(long.flatMap(formsOf), "g");
  const whole = short.length > 0 ? new RegExp(`^(?:${sortedPatterns(short.flatMap(formsOf)).join("|")})$`) : null;

  const mask = ((text: string) => {
    if (typeof text !== "string" || text.length === 0) return text;
    if (whole?.test(text)) return MASK;
    return anywhere ? text.replace(anywhere, MASK) : text;
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

function sortedPatterns(forms: string[]): string[] {
  return [...new Set(forms)].sort((a, b) => b.length - a.length).map(tolerantPattern);
}

function alternation(forms: string[], flags: string): RegExp | null {
  return forms.length === 0 ? null : new RegExp(sortedPatterns(forms).join("|"), flags);
}
