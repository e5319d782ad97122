// Health: 200 once the studio has started (database migrated, key checked), 503 with the reason otherwise. The
// reason is a sentence a person can act on: the studio's own for what it checks itself, else one with the error id
// the start-up's details were logged under (R-error-id), never a driver's words. The run queue and the scheduler start
// after the first page; when one of them could not, it answers 503 saying which (R-boot-after-page).
import { NextResponse } from "next/server";
import { databaseState } from "@/server/db";
import { backgroundFailure, startupDone, startupFailure } from "@/server/startup-state";

export const dynamic = "force-dynamic";

export async function GET() {
  const failure = startupFailure() ?? backgroundFailure();
  if (failure) return NextResponse.json({ ok: false, error: failure.sentence }, { status: 503 });
  const state = databaseState();
  if (state?.status === "ready" && startupDone()) return NextResponse.json({ ok: true, db: state.database.kind });
  // A database that failed is a start-up failure a moment later, once start-up has taken its error in.
  return NextResponse.json({ ok: false, error: "The studio is still starting." }, { status: 503 });
}
