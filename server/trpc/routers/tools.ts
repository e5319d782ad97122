// The tool tree, as the /tools pages read it.
import { listTreeFiles } from "@/server/catalog/tree-files";
import { env } from "@/server/env";
import { publicProcedure, router } from "../init";

export const toolsRouter = router({
  files: publicProcedure.query(() => listTreeFiles(env().toolsDir)),
});
