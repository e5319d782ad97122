// drizzle-kit: generates SQL migrations from db/schema.ts into db/migrations (committed, applied at start-up).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
