// Which addresses fetch_url may reach: not the studio's own machine, its cloud's metadata service or the networks
// behind it (SSRF), unless the builder allows private addresses. Edit when a range is added to the private ones.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** Addresses that are not on the public internet (RFC 6890): loopback, private, link-local, shared, reserved. */
const PRIVATE_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network": 0.0.0.0 reaches the studio's own machine
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, where cloud metadata (169.254.169.254) lives
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

const PRIVATE_V6: [string, number][] = [
  ["::", 96], // unspecified, loopback (::1) and the old IPv4-compatible form
  ["64:ff9b:1::", 48], // local-use NAT64
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // the old site-local
  ["ff00::", 8], // multicast
];

const blocked = new BlockList();
for (const [network, prefix] of PRIVATE_V4) {
  blocked.addSubnet(network, prefix, "ipv4");
  // The same IPv4 networks inside IPv6 forms that carry an IPv4 address: NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
  // (IPv4-mapped ::ffff:a.b.c.d is matched by the IPv4 subnet itself.)
  const n = network.split(".").reduce((sum, part) => sum * 256 + Number(part), 0);
  const hex = `${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  blocked.addSubnet(`64:ff9b::${hex}`, 96 + prefix, "ipv6");
  blocked.addSubnet(`2002:${hex}::`, 16 + prefix, "ipv6");
}
for (const [network, prefix] of PRIVATE_V6) blocked.addSubnet(network, prefix, "ipv6");

/** Whether an IP address (v4 or v6, without brackets) is private; anything that is not an address counts as private. */
export function isPrivate(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** Thrown when a destination is refused: the host as the address named it, the address it is, the page that redirected there. */
export class PrivateAddress extends Error {
  from?: string;

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} is a private address (${address})`);
  }
}

/** Which addresses a fetch may connect to: every public one, and the private ones too when the builder allowed them. */
export type Allows = (address: string) => boolean;

export const publicOnly: Allows = (address) => !isPrivate(address);
export const anyAddress: Allows = () => true;

/** A name's addresses, as dns.lookup with `all: true` answers them. */
export type Resolve = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

export const resolveAll: Resolve = (hostname, options) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { ...options, all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * The lookup a connection makes: the name's every address checked, and the socket handed only those, so the address
 * connected to is the one checked (a DNS answer that changes between a check and the connection cannot slip through).
 */
export function guardedLookup(allows: Allows, resolve: Resolve = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options).then(
      (addresses) => {
        const refused = addresses.find((a) => !allows(a.address));
        if (refused) return callback(new PrivateAddress(hostname, refused.address), "", 0);
        const [first] = addresses;
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
        if (options.all) return callback(null, addresses);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
