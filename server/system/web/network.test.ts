import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { guardedLookup, isPrivate, PrivateAddress, publicOnly, type Resolve } from "./network";

const resolving = (addresses: LookupAddress[]): Resolve => async () => addresses;

function look(resolve: Resolve, all: boolean): Promise<{ error: Error | null; address: unknown; family?: number }> {
  return new Promise((done) => guardedLookup(publicOnly, resolve)("example.test", { all }, (error, address, family) => done({ error, address, family })));
}

describe("which addresses are private", () => {
  it("counts every private IPv4 range, edges included: loopback, 10/8, 172.16/12, 192.168/16, link-local, CGNAT, 0/8", () => {
    for (const address of [
      "127.0.0.1", "127.255.255.254", "10.0.0.0", "10.255.255.255", "172.16.0.0", "172.31.255.255", "192.168.0.1",
      "169.254.169.254", "100.64.0.0", "100.127.255.255", "0.0.0.0", "224.0.0.1", "255.255.255.255",
    ]) {
      expect(isPrivate(address), address).toBe(true);
    }
  });

  it("counts every private IPv6 range: ::1, ::, fc00::/7, fe80::/10, multicast", () => {
    for (const address of ["::1", "::", "fc00::1", "fdff:ffff::1", "fe80::1", "febf::1", "ff02::1"]) expect(isPrivate(address), address).toBe(true);
  });

  it("counts a private IPv4 address written in IPv6: mapped, NAT64 and 6to4", () => {
    for (const address of ["::ffff:127.0.0.1", "::ffff:a9fe:a9fe", "64:ff9b::a00:1", "64:ff9b::127.0.0.1", "2002:c0a8:101::1"]) {
      expect(isPrivate(address), address).toBe(true);
    }
  });

  it("leaves public addresses alone, right beside the private ranges", () => {
    for (const address of ["8.8.8.8", "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0", "11.0.0.1", "169.253.255.255", "2606:4700::1111", "64:ff9b::808:808", "::ffff:8.8.8.8", "fbff::1"]) {
      expect(isPrivate(address), address).toBe(false);
    }
  });

  it("counts what is not an address as private", () => {
    expect(isPrivate("localhost")).toBe(true);
  });
});

describe("the lookup a connection makes", () => {
  it("refuses a name when any one of its addresses is private", async () => {
    const { error } = await look(resolving([{ address: "93.184.215.14", family: 4 }, { address: "10.0.0.7", family: 4 }]), true);
    expect(error).toBeInstanceOf(PrivateAddress);
    expect(error).toMatchObject({ host: "example.test", address: "10.0.0.7" });
  });

  it("hands the socket only the addresses it checked, all of them or the first as asked", async () => {
    const addresses = [{ address: "93.184.215.14", family: 4 }, { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 }];
    expect(await look(resolving(addresses), true)).toEqual({ error: null, address: addresses, family: undefined });
    expect(await look(resolving(addresses), false)).toEqual({ error: null, address: "93.184.215.14", family: 4 });
  });

  it("passes on a name that does not resolve as the resolver's error", async () => {
    const missing = Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    const { error } = await look(() => Promise.reject(missing), true);
    expect(error).toBe(missing);
  });
});
