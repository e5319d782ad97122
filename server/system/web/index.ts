// system:web: fetch one page as text (fetch_url, R-sys-web). The length cap is a setting, so the model sets only url;
// it caps the text returned, not the bytes downloaded, which have a bound of their own to keep the studio up.
// Private addresses (this machine, its network, cloud metadata) are refused unless the builder allows them (network.ts).
import { count, handler, limit, Refusal, text } from "../handler";
import { inputs, operation, type SystemResult, type SystemSource } from "../types";
import { htmlToText } from "./html";
import { anyAddress, PrivateAddress, publicOnly } from "./network";
import { fetchPage, type Page } from "./request";

/** R-sys-timeouts: fetch_url has 60 seconds. */
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

function decode(bytes: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** The one sentence a refused private destination answers: what it was, and who can allow it. */
function privateRefusal(refused: PrivateAddress): Refusal {
  const what = refused.host === refused.address ? `${refused.host} is a private network address` : `${refused.host} resolves to ${refused.address}, a private network address`;
  const via = refused.from ? ` (reached by a redirect from ${refused.from})` : "";
  return new Refusal(`${what}${via}, which fetch_url does not reach; fetch a public address instead, or ask the agent's builder to allow private addresses in the web source's settings.`);
}

const fetchUrl = handler(async (args, ctx): Promise<SystemResult> => {
  const url = address(text(args, "url"));
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(FETCH_SECONDS * 1000)]);
  const allows = ctx.settings.allow_private_network === true ? anyAddress : publicOnly;
  let response: Page;
  try {
    response = await fetchPage(url, { signal, allows, maxBytes: MAX_DOWNLOAD_BYTES });
  } catch (error) {
    if (error instanceof PrivateAddress) throw privateRefusal(error);
    if (error instanceof Refusal) throw error;
    if (signal.aborted && !ctx.signal.aborted) {
      return { text: `${url.href} did not answer within ${FETCH_SECONDS} s; try again later, or another address.`, outcome: "timeout" };
    }
    if (ctx.signal.aborted) return { text: "The fetch was stopped because the call was cancelled.", outcome: "failed" };
    const why = (error as NodeJS.ErrnoException).code ?? ((error as Error).message || (error as Error).name);
    return { text: `Could not reach ${url.host} (${why}); check the address, or try again later.`, outcome: "transient" };
  }
  const contentType = response.contentType;
  const isHtml = /html/i.test(contentType);
  if (contentType && !isHtml && !TEXTUAL.test(contentType)) {
    throw new Refusal(`${response.url} is ${contentType.split(";")[0]}, not text; fetch_url reads only web pages and other text.`);
  }
  const raw = decode(response.bytes, contentType);
  let page = isHtml || (!contentType && /^\s*<(!doctype html|html)/i.test(raw)) ? htmlToText(raw, response.url) : raw;
  if (response.cut) page += `\n[The response is over ${count(MAX_DOWNLOAD_BYTES)} bytes; only its start was read.]`;
  if (response.status < 200 || response.status > 299) {
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
      allow_private_network: {
        type: "boolean",
        default: false,
        description: "Turn on to let the agent fetch from this machine or the local network, such as a model server or wiki there; off, it reaches only public addresses.",
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
      // R-sys-timeouts: 60 seconds.
      timeout: 60,
      capabilities: ["web.fetch"],
    }),
  ],
  handlers: { fetch_url: fetchUrl },
};
