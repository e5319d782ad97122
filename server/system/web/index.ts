// system:web: fetch one page as text (seed 002's fetch_url). The length cap is a setting, so the model sets only url;
// it caps the text returned, not the bytes downloaded (seed 002), which have a bound of their own to keep the studio up.
import { count, handler, limit, Refusal, text } from "../handler";
import { inputs, operation, type SystemResult, type SystemSource } from "../types";
import { htmlToText } from "./html";

/** Seed 002's table: fetch_url has 60 seconds. */
export const FETCH_SECONDS = 60;
export const DEFAULT_MAX_LENGTH = 20_000;
/** The most of one response read, whatever max_length says: a bound on the studio's memory, not on the text. */
export const MAX_DOWNLOAD_BYTES = 10 * 1024 * 1024;
const ERROR_BODY_SHOWN = 2_000;

const TEXTUAL = /^text\/|[+/](json|xml|javascript|ecmascript|csv|yaml|x-yaml|markdown)\b/i;

function address(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Refusal(`“${raw}” is not a web address; give a full one, starting with https:// or http://.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Refusal(`fetch_url reads only http and https addresses, not ${url.protocol.slice(0, -1)}; give an address starting with https:// or http://.`);
  }
  if (url.username || url.password) throw new Refusal("The address carries a user name or password; fetch_url does not send credentials, so give it without them.");
  return url;
}

/** The body's bytes up to MAX_DOWNLOAD_BYTES, and whether there were more. */
async function body(response: Response): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return { bytes: Buffer.alloc(0), cut: false };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), cut: false };
    chunks.push(Buffer.from(value));
    size += value.length;
    if (size > MAX_DOWNLOAD_BYTES) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks).subarray(0, MAX_DOWNLOAD_BYTES), cut: true };
    }
  }
}

function decode(bytes: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

const fetchUrl = handler(async (args, ctx): Promise<SystemResult> => {
  const url = address(text(args, "url"));
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(FETCH_SECONDS * 1000)]);
  let response: Response;
  let download: { bytes: Buffer; cut: boolean };
  try {
    response = await fetch(url, { signal, redirect: "follow", headers: { accept: "text/html, text/plain;q=0.9, */*;q=0.5", "user-agent": "Quiver-fetch_url/1" } });
    download = await body(response);
  } catch (error) {
    if (signal.aborted && !ctx.signal.aborted) {
      return { text: `${url.href} did not answer within ${FETCH_SECONDS} s; try again later, or another address.`, outcome: "timeout" };
    }
    if (ctx.signal.aborted) return { text: "The fetch was stopped because the call was cancelled.", outcome: "failed" };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    return { text: `Could not reach ${url.host} (${why}); check the address, or try again later.`, outcome: "transient" };
  }
  const contentType = response.headers.get("content-type") ?? "";
  const isHtml = /html/i.test(contentType);
  if (contentType && !isHtml && !TEXTUAL.test(contentType)) {
    throw new Refusal(`${response.url} is ${contentType.split(";")[0]}, not text; fetch_url reads only web pages and other text.`);
  }
  const raw = decode(download.bytes, contentType);
  let page = isHtml || (!contentType && /^\s*<(!doctype html|html)/i.test(raw)) ? htmlToText(raw, response.url) : raw;
  if (download.cut) page += `\n[The response is over ${count(MAX_DOWNLOAD_BYTES)} bytes; only its start was read.]`;
  if (!response.ok) {
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""} from ${response.url}.`;
    const shown = page.trim().slice(0, ERROR_BODY_SHOWN);
    const transient = response.status === 429 || response.status >= 500;
    return { text: shown ? `${status}\n${shown}` : status, outcome: transient ? "transient" : "failed" };
  }
  const max = limit(ctx.settings, "max_length", DEFAULT_MAX_LENGTH);
  if (page.length > max) page = `${page.slice(0, max)}\n[Cut at ${count(max)} of ${count(page.length)} characters.]`;
  const moved = response.url && response.url !== url.href ? `(redirected to ${response.url})\n` : "";
  return { text: moved + (page || "(the page is empty)"), outcome: "ok" };
});

export const web: SystemSource = {
  name: "web",
  title: "Web",
  description: "Fetch web pages over HTTP and HTTPS and read them as text.",
  settings_schema: {
    type: "object",
    properties: {
      max_length: {
        type: "integer",
        minimum: 100,
        default: 20_000,
        description: "Most characters of a page's text returned; the download itself is not cut.",
      },
    },
    required: [],
  },
  operations: [
    operation({
      name: "fetch_url",
      title: "Fetch a web page",
      description:
        "Fetch one http or https URL and answer its text (HTML turned into readable text), cut at the length limit; refuses other schemes and answers the status of a failed request.",
      input_schema: inputs({ url: { type: "string", description: "The page's address, starting with http:// or https://." } }, ["url"]),
      risk: "network",
      read_only: true,
      // Seed 002's table: 60 seconds.
      timeout: 60,
      capabilities: ["web.fetch"],
    }),
  ],
  handlers: { fetch_url: fetchUrl },
};
