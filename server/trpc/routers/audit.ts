// Settings → Audit: the log, filterable, for admins.
import { z } from "zod";
import { listAudit } from "@/server/audit/list";
import { getDb } from "@/server/db";
import { adminProcedure, router } from "../init";

export const auditRouter = router({
  list: adminProcedure
    .input(
      z.object({
        actor: z.string().max(200).optional(),
        action: z.string().max(100).optional(),
        target: z.string().max(200).optional(),
        from: z.coerce.date().optional(),
        to: z.coerce.date().optional(),
        limit: z.number().int().min(1).max(500).default(200),
      }),
    )
    .query(async ({ input }) => listAudit(await getDb(), input)),
});
