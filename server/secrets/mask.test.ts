// Masking (R-secret-mask): a value that reached a tool is *** in whatever is shown or kept afterwards,
// in the forms a tool prints it in.
import { describe, expect, it } from "vitest";
import { makeMasker, MASK } from "./mask";

const VALUE = "tkt_9f/Az+k= é&x y";
const mask = makeMasker([VALUE]);
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

describe("masking", () => {
  it("masks the value wherever it appears in a text", () => {
    expect(mask(`token=${VALUE}; again: ${VALUE}.`)).toBe("token=***; again: ***.");
  });

  it("masks its base64, standard and URL-safe, with and without padding", () => {
    for (const value of ["abcd", "abcde", "abcdef", VALUE]) {
      const one = makeMasker([value]);
      const forms = [b64(value), b64(value).replace(/=+$/, ""), b64url(value), `${b64url(value)}==`.slice(0, b64(value).length)];
      for (const form of forms) {
        const shown = one(`Authorization: ${form}`);
        expect(shown, form).toBe(`Authorization: ${MASK}`);
      }
    }
  });

  it("masks the value inside a longer base64 text, such as a Basic auth header", () => {
    for (const user of ["u", "us", "use", "user"]) {
      const header = `Basic ${b64(`${user}:${VALUE}`)}`;
      const shown = mask(header);
      expect(shown, user).toContain(MASK);
      // What is left of the encoding cannot spell the value: at most the few characters at each edge.
      expect(shown.replace(MASK, "").length, user).toBeLessThanOrEqual(`Basic ${b64(`${user}:`)}`.length + 4);
    }
  });

  it("masks its URL-encoded forms: encodeURIComponent, form encoding with +, and either hex case", () => {
    const component = encodeURIComponent(VALUE);
    const form = new URLSearchParams({ t: VALUE }).toString().slice(2);
    expect(form).toContain("+");
    expect(mask(`https://x.example/?t=${component}&n=1`)).toBe(`https://x.example/?t=${MASK}&n=1`);
    expect(mask(`t=${form}&n=1`)).toBe(`t=${MASK}&n=1`);
    const lowerHex = component.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    expect(lowerHex).toContain("%2f");
    expect(mask(`t=${lowerHex}`)).toBe(`t=${MASK}`);
    expect(mask(`t=${encodeURIComponent(b64(VALUE))}`)).toBe(`t=${MASK}`);
  });

  it("masks the value inside JSON text, escaped as JSON.stringify and Python's json.dumps write it", () => {
    const tricky = 'pa"ss\\wörd/1\n';
    const one = makeMasker([tricky]);
    expect(one(JSON.stringify({ token: tricky, n: 1 }))).toBe(`{"token":"${MASK}","n":1}`);
    const pythonStyle = '{"token": "pa\\"ss\\\\w\\u00f6rd\\/1\\n"}';
    expect(one(pythonStyle)).toBe(`{"token": "${MASK}"}`);
  });

  it("masks its hex, in small letters and in capitals, also inside a longer hex text", () => {
    const hex = Buffer.from(VALUE, "utf8").toString("hex");
    expect(mask(`digest ${hex} end`)).toBe(`digest ${MASK} end`);
    expect(mask(`DIGEST ${hex.toUpperCase()} END`)).toBe(`DIGEST ${MASK} END`);
    const header = Buffer.from(`user:${VALUE}`, "utf8").toString("hex");
    expect(mask(header)).toBe(`${Buffer.from("user:").toString("hex")}${MASK}`);
    expect(makeMasker(["ok"])("6f6b")).toBe(MASK);
  });

  it("masks its JSON-escaped forms as Python's json.dumps writes them, ensure_ascii or not, and JSON inside a JSON string", () => {
    // Written by Python 3's json.dumps: ensure_ascii=True escapes é, the emoji (as a surrogate pair) and DEL.
    const value = 'pa"ss\\wörd/1\n😀<&>\x7f';
    const one = makeMasker([value]);
    expect(one('{"t": "pa\\"ss\\\\w\\u00f6rd/1\\n\\ud83d\\ude00<&>\\u007f"}')).toBe(`{"t": "${MASK}"}`);
    expect(one(`{"t": "pa\\"ss\\\\wörd/1\\n😀<&>\x7f"}`)).toBe(`{"t": "${MASK}"}`);
    // json.dumps({"body": json.dumps({"t": value})}): a request body a tool returns inside its own JSON.
    const nested = '{"body": "{\\"t\\": \\"pa\\\\\\"ss\\\\\\\\w\\\\u00f6rd/1\\\\n\\\\ud83d\\\\ude00<&>\\\\u007f\\"}"}';
    expect(one(nested)).toBe('{"body": "{\\"t\\": \\"***\\"}"}');
    expect(one(JSON.stringify({ body: JSON.stringify({ t: value }) }))).toBe('{"body":"{\\"t\\":\\"***\\"}"}');
    // Go's encoding/json writes <, > and & as \u003c, \u003e and \u0026.
    const go = JSON.stringify(value).slice(1, -1).replace(/[<>&]/g, (ch) => `\\u00${ch.charCodeAt(0).toString(16)}`);
    expect(go).toContain("\\u0026");
    expect(one(`"t":"${go}"`)).toBe(`"t":"${MASK}"`);
  });

  it("masks strings inside arrays and objects, keys included, and leaves other values alone", () => {
    const shown = mask.deep({ list: [`Bearer ${VALUE}`, 3, null, true], nested: { [VALUE]: b64(VALUE) }, plain: "hello" });
    expect(shown).toEqual({ list: [`Bearer ${MASK}`, 3, null, true], nested: { [MASK]: MASK }, plain: "hello" });
  });

  it("masks a long value, such as a 64 KB key, in its every form", () => {
    const key = Array.from({ length: 65_536 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join("");
    const long = makeMasker([key]);
    const hex = Buffer.from(key).toString("hex");
    expect(long(`key=${key}; b64=${b64(key)}; url=${encodeURIComponent(key)}; hex=${hex}; json=${JSON.stringify(key)}`)).toBe(
      'key=***; b64=***; url=***; hex=***; json="***"',
    );
  });

  it("masks several values at once, the longer first when one contains another", () => {
    const many = makeMasker(["secret-one", "secret-one-and-more", "another value"]);
    expect(many("a secret-one-and-more b secret-one c another value")).toBe("a *** b *** c ***");
  });

  it("masks a value shorter than 4 characters only where a whole string is the value, and never the empty string", () => {
    const short = makeMasker(["ok", ""]);
    expect(short("ok")).toBe(MASK);
    expect(short("it is ok, look")).toBe("it is ok, look");
    expect(short.deep({ pin: "ok", note: "book" })).toEqual({ pin: MASK, note: "book" });
    expect(makeMasker([""])("anything")).toBe("anything");
    expect(makeMasker([""]).active).toBe(false);
  });
});
