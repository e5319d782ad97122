// better-auth's endpoints, only those Quiver uses: accounts are made by the owner set-up and by admins
// (server-side), never by a public sign-up, so every other path answers 404. What another site's page sent is
// refused first (R-req-origin), and better-auth sees the client's address as the studio resolved it
// (R-req-trusted-proxy), never an address the client wrote.
import { NextResponse } from "next/server";
import { getAuth } from "@/server/auth/auth";
import { env } from "@/server/env";
import { withClientAddress } from "@/server/http/address";
import { guarded } from "@/server/http/guard";

const allowed = new Set(["/api/auth/sign-in/email", "/api/auth/sign-out", "/api/auth/get-session"]);

const handler = guarded("plain", async (request: Request) => {
  if (!allowed.has(new URL(request.url).pathname)) {
    return NextResponse.json({ message: "Not found" }, { status: 404 });
  }
  return (await getAuth()).handler(await withClientAddress(request, env().trustedProxies));
});

export { handler as GET, handler as POST };
