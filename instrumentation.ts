// Next calls register() once per server start. It is also compiled for the Edge runtime,
// so the Node-only start-up is loaded behind the runtime check (R-ops-instrumentation).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // The database's thread starts while the start-up's own modules load: they take the studio's thread, it takes
    // the other core (R-boot-db-early). Its outcome is the start-up's to report, which waits for the same promise.
    void import("./server/db").then((m) => m.startDatabase().catch(() => undefined));
    const { startStudio } = await import("./server/startup");
    // Not awaited: pages that need no database serve at once, routes that do wait for it,
    // and /api/health answers 503 "still starting" until the migrations are done. The run queue and the scheduler
    // start once the first page has been served (R-boot-after-page).
    void startStudio({ afterFirstPage: true });
  }
}
