// Health: 200 once the database is migrated, 503 with the reason otherwise.
import { NextResponse } from "next/server";
import { databaseState } from "@/server/db";

export const dynamic = "force-dynamic";

export async function GET() {
  const state = databaseState();
  if (state?.status === "ready") return NextResponse.json({ ok: true, db: state.database.kind });
  if (state?.status === "failed") {
    return NextResponse.json({ ok: false, error: state.error.message }, { status: 503 });
  }
  return NextResponse.json({ ok: false, error: "The database is still starting." }, { status: 503 });
}
