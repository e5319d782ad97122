// Settings → Audit: the log, filterable, for admins.
import { z } from "zod";
import { listAudit } from "@/server/audit/list";
import { getDb } from "@/server/db";
import { adminProcedure, router } from "../init";
import { text } from "../text";

export const auditRouter = router({
  list: adminProcedure
    .input(
      z.object({
        actor: text().max(200).optional(),
        action: text().max(100).optional(),
        target: text().max(200).optional(),
        from: z.coerce.date().optional(),
        to: z.coerce.date().optional(),
        limit: z.number().int().min(1).max(500).default(200),
      }),
    )
    .query(async ({ input }) => listAudit(await getDb(), input)),
});
