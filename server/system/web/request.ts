// One GET as fetch_url makes it: over node:http(s) with a lookup that checks every address connected to, redirects
// followed here so each hop is checked the same way, the body read up to a bound. Edit when a request says more.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { Refusal } from "../handler";
import { guardedLookup, PrivateAddress, type Allows, type Resolve } from "./network";

/** fetch's own limit on redirects. */
export const MAX_REDIRECTS = 20;

export type Page = { url: string; status: number; statusText: string; contentType: string; bytes: Buffer; cut: boolean };

export type RequestOptions = {
  signal: AbortSignal;
  /** Checked against every address of every hop before it is connected to. */
  allows: Allows;
  /** Answers a name's addresses; dns.lookup unless a test gives its own. */
  resolve?: Resolve;
  /** The most of the body read; the rest is dropped and `cut` set. */
  maxBytes: number;
};

const HEADERS = { accept: "text/html, text/plain;q=0.9, */*;q=0.5", "accept-encoding": "gzip, deflate, br", "user-agent": "Quiver-fetch_url/1" };

/** The page at url, after its redirects. Throws PrivateAddress for a refused hop, Refusal for a bad redirect. */
export async function fetchPage(start: URL, options: RequestOptions): Promise<Page> {
  let url = start;
  let from: URL | null = null;
  for (let hop = 0; ; hop++) {
    const response = await get(url, options).catch((error: unknown) => {
      if (error instanceof PrivateAddress && from) error.from = from.href;
      throw error;
    });
    const location = response.headers.location;
    if (!(response.statusCode && [301, 302, 303, 307, 308].includes(response.statusCode) && location)) {
      const { bytes, cut } = await body(decoded(response), options.maxBytes);
      const contentType = response.headers["content-type"] ?? "";
      return { url: url.href, status: response.statusCode ?? 0, statusText: response.statusMessage ?? "", contentType, bytes, cut };
    }
    response.destroy();
    if (hop === MAX_REDIRECTS) throw new Refusal(`${start.href} redirects more than ${MAX_REDIRECTS} times; give the address it should end at.`);
    const next = target(location, url);
    // Credentials a redirect names are not sent, as none given by the model are.
    next.username = next.password = "";
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      throw new Refusal(`${url.href} redirects to a ${next.protocol.slice(0, -1)} address, and fetch_url reads only http and https.`);
    }
    from = url;
    url = next;
  }
}

function target(location: string, url: URL): URL {
  try {
    return new URL(location, url);
  } catch {
    throw new Refusal(`${url.href} redirects to “${location}”, which is not a web address.`);
  }
}

function get(url: URL, { signal, allows, resolve }: RequestOptions): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // A literal address is connected to without a lookup, so it is checked here; a name is checked by the lookup.
  if (isIP(host) && !allows(host)) return Promise.reject(new PrivateAddress(host, host));
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((done, fail) => {
    // agent: false, so no pooled connection, made under another agent's settings, is reused without a lookup.
    const req = request(url, { method: "GET", headers: HEADERS, agent: false, lookup: guardedLookup(allows, resolve), signal }, done);
    req.on("error", fail);
    req.end();
  });
}

function decoded(response: IncomingMessage): Readable {
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : encoding === "br" ? createBrotliDecompress() : null;
  return decoder ? pipeline(response, decoder, () => undefined) : response;
}

/** The body's bytes up to maxBytes, and whether there were more. */
async function body(stream: Readable, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), cut: true };
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}
