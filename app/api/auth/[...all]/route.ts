// better-auth's endpoints, only those Quiver uses: accounts are made by the owner set-up and by admins
// (server-side), never by a public sign-up, so every other path answers 404. What another site's page sent is
// refused first (R-req-origin), then a body better-auth must not see (body.ts), and better-auth sees the client's
// address as the studio resolved it (R-req-trusted-proxy), never an address the client wrote. A failure better-auth
// did not word itself answers the error-id sentence (R-error-id), never an empty 500.
import { NextResponse } from "next/server";
import { getAuth } from "@/server/auth/auth";
import { env } from "@/server/env";
import { reportUnexpected } from "@/server/error-report";
import { withClientAddress } from "@/server/http/address";
import { guarded } from "@/server/http/guard";
import { checkBody } from "./body";

const allowed = new Set(["/api/auth/sign-in/email", "/api/auth/sign-out", "/api/auth/get-session"]);

function unexpected(error: unknown, pathname: string, carried: readonly string[]): Response {
  const { id, sentence } = reportUnexpected(error, `auth ${pathname}`, carried);
  return NextResponse.json({ message: sentence, code: "INTERNAL_SERVER_ERROR", errorId: id }, { status: 500 });
}

const handler = guarded("plain", async (request: Request) => {
  const pathname = new URL(request.url).pathname;
  if (!allowed.has(pathname)) {
    return NextResponse.json({ message: "Not found" }, { status: 404 });
  }
  const checked = await checkBody(request, pathname);
  if (checked.refusal) return checked.refusal;
  try {
    const answer = await (await getAuth()).handler(await withClientAddress(request, env().trustedProxies));
    if (answer.status < 500) return answer;
    // An error better-auth made itself with a 5xx status: its words are not for the client either.
    return unexpected(new Error(`better-auth answered ${answer.status}: ${await answer.text()}`), pathname, checked.carried);
  } catch (error) {
    return unexpected(error, pathname, checked.carried);
  }
});

export { handler as GET, handler as POST };
