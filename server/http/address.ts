// Which network address a request came from, for the sign-in limits (R-req-trusted-proxy). Only the socket knows,
// and route handlers never see the socket: scripts/serve.mjs stamps its peer address on every request, over any
// value a client sent. X-Forwarded-For is read only when that peer is a proxy QUIVER_TRUSTED_PROXIES names.
import net from "node:net";

/** Set by scripts/serve.mjs from req.socket.remoteAddress; keep the two spellings the same. */
export const PEER_HEADER = "x-quiver-peer";
/** scripts/serve.mjs sets this on globalThis: without it nobody overwrote PEER_HEADER, so a client may have sent it. */
const PEER_STAMPED = Symbol.for("quiver.peer-stamped");
/** The address the auth route hands better-auth and the sign-in limits, resolved once, never a client's own value. */
export const CLIENT_HEADER = "x-quiver-client";

export function peerIsStamped(): boolean {
  return (globalThis as Record<symbol, unknown>)[PEER_STAMPED] === true;
}

/**
 * An address as one client is counted: an IPv4-mapped IPv6 address as IPv4, and IPv6 by its /64 network (written
 * out in full with the rest zero), since one machine is commonly given a whole /64.
 */
export function countedAddress(address: string): string {
  const plain = unmapped(address);
  if (net.isIP(plain) !== 6) return plain;
  return [...expandIPv6(plain).slice(0, 4), "0000", "0000", "0000", "0000"].join(":");
}

function unmapped(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed.toLowerCase();
}

function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => group.padStart(4, "0"));
}

function proxyList(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const type = net.isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function isTrusted(list: net.BlockList, address: string): boolean {
  const plain = unmapped(address);
  const family = net.isIP(plain);
  return family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address as it is counted, or null when unknown (served without scripts/serve.mjs). Behind trusted
 * proxies it is the right-most X-Forwarded-For entry that is not itself a trusted proxy: entries to its left were
 * written by the client and prove nothing.
 */
export function clientAddress(headers: Headers, trustedProxies: readonly string[], stamped = peerIsStamped()): string | null {
  const peer = stamped ? headers.get(PEER_HEADER)?.trim() : undefined;
  if (!peer || !net.isIP(unmapped(peer))) return null;
  const proxies = proxyList(trustedProxies);
  if (!isTrusted(proxies, peer)) return countedAddress(peer);
  const chain = (headers.get("x-forwarded-for") ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i]!;
    // A hop that is not an address was not written by a proxy: count the last proxy that forwarded it instead.
    if (!net.isIP(unmapped(hop))) return countedAddress(i + 1 < chain.length ? chain[i + 1]! : peer);
    if (!isTrusted(proxies, hop)) return countedAddress(hop);
  }
  return countedAddress(chain[0] ?? peer);
}

/** `request` with CLIENT_HEADER set to its resolved address (or removed when unknown), whatever the client sent. */
export async function withClientAddress(request: Request, trustedProxies: readonly string[]): Promise<Request> {
  const headers = new Headers(request.headers);
  const address = clientAddress(request.headers, trustedProxies);
  if (address) headers.set(CLIENT_HEADER, address);
  else headers.delete(CLIENT_HEADER);
  // Made from its parts: Next hands routes a Request of its own class, which the Request constructor cannot copy.
  const body = request.body ? await request.arrayBuffer() : undefined;
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}
