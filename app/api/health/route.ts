// Health: 200 once the studio has started (database migrated, key checked), 503 with the reason otherwise.
import { NextResponse } from "next/server";
import { databaseState } from "@/server/db";
import { startupDone, startupFailure } from "@/server/startup-state";

export const dynamic = "force-dynamic";

export async function GET() {
  const state = databaseState();
  // A start-up error after the database opened (a wrong studio key) is the one worth reporting.
  const failure = startupFailure();
  if (failure && state?.status !== "failed") return NextResponse.json({ ok: false, error: failure.message }, { status: 503 });
  if (state?.status === "ready" && startupDone()) return NextResponse.json({ ok: true, db: state.database.kind });
  if (state?.status === "failed") {
    return NextResponse.json({ ok: false, error: state.error.message }, { status: 503 });
  }
  return NextResponse.json({ ok: false, error: "The studio is still starting." }, { status: 503 });
}
