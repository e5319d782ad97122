// better-auth's endpoints, only those Quiver uses: accounts are made by the owner set-up and by admins
// (server-side), never by a public sign-up, so every other path answers 404.
import { NextResponse } from "next/server";
import { getAuth } from "@/server/auth/auth";

const allowed = new Set(["/api/auth/sign-in/email", "/api/auth/sign-out", "/api/auth/get-session"]);

async function handler(request: Request) {
  if (!allowed.has(new URL(request.url).pathname)) {
    return NextResponse.json({ message: "Not found" }, { status: 404 });
  }
  return (await getAuth()).handler(request);
}

export { handler as GET, handler as POST };
