// Prices as an admin writes them and as the studio shows them (R-cost-exact): decimal text turned into integer
// micro-units per million tokens and back without a float in between, and the sentences a wrong price gets. Pure,
// for the browser and the server alike; the cost of a run is counted by the database (db/schema/runs.ts).

/** Three capital letters, as ISO 4217 writes a currency; shown as given, never converted. */
export const CURRENCY = /^[A-Z]{3}$/;
/** A price per million tokens: up to 7 digits, and at most 6 after the point (a micro-unit). */
export const PRICE = /^\d{1,7}(\.\d{1,6})?$/;
export const PRICES_MAX = 500;

export const CURRENCY_RULE = "currency must be three capital letters, such as USD or EUR.";
export const PRICE_RULE = "prices: write each price per million tokens as a number such as 2.50, with at most 6 digits after the point and no currency sign.";

/** "2.5" → 2500000: exact, since the text is split at its point rather than parsed as a float. */
export function microsOf(price: string): number {
  const text = price.trim();
  if (!PRICE.test(text)) throw new RangeError(PRICE_RULE);
  const [whole, fraction = ""] = text.split(".");
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, "0"));
}

/** 2500000 → "2.50": at least two digits after the point, more only where the price has them. */
export function decimalOf(micros: number): string {
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000).padStart(6, "0").replace(/0+$/, "");
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/** A model's price as an admin writes it: decimal text per million tokens. */
export type PriceText = { model: string; input: string; output: string };

/** The stored form (micro-units per million tokens) as the Models page shows it, by model id. */
export function pricesText(stored: Record<string, { input: number; output: number }>): PriceText[] {
  return Object.entries(stored)
    .map(([model, p]) => ({ model, input: decimalOf(p.input), output: decimalOf(p.output) }))
    .sort((a, b) => a.model.localeCompare(b.model));
}

/**
 * A cost in the currency as the database keeps it (a decimal text with 12 digits after the point), for a person:
 * two digits after the point from a hundredth up, else the first two significant digits, rounded half up on the
 * text itself; a cost that is not nothing never reads 0.00.
 */
export function costWords(cost: string, currency: string): string {
  const [wholeText = "0", fractionText = ""] = cost.replace(/^-/, "").split(".");
  const whole = wholeText.replace(/^0+(?=\d)/, "");
  const fraction = fractionText.padEnd(12, "0");
  if (whole === "0" && /^0*$/.test(fraction)) return `0.00 ${currency}`;
  let digits = 2;
  if (whole === "0" && fraction.startsWith("00")) digits = (/^0*/.exec(fraction)?.[0].length ?? 0) + 2;
  return `${roundedText(whole, fraction, Math.min(digits, 12))} ${currency}`;
}

function roundedText(whole: string, fraction: string, digits: number): string {
  const units = BigInt(whole + fraction.slice(0, digits)) + (Number(fraction[digits] ?? "0") >= 5 ? BigInt(1) : BigInt(0));
  const text = units.toString().padStart(digits + 1, "0");
  const wholePart = text.slice(0, text.length - digits);
  return `${BigInt(wholePart).toLocaleString("en")}.${text.slice(text.length - digits)}`;
}

/** The cost of these tokens at this price, exactly as the database counts it, as its decimal text. */
export function costOf(tokens: { input: number; output: number }, price: { input: number; output: number }): string {
  const pico = BigInt(tokens.input) * BigInt(price.input) + BigInt(tokens.output) * BigInt(price.output);
  const text = pico.toString().padStart(13, "0");
  return `${text.slice(0, -12)}.${text.slice(-12)}`;
}
