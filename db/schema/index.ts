// The one Postgres-dialect schema, for PGlite and PostgreSQL alike, one file per concern.
// Change a table, then run `npm run db:generate` and commit the migration it writes.
export * from "./agents";
export * from "./audit";
export * from "./auth";
export * from "./secrets";
export * from "./tree";
export * from "./runs";
export * from "./mcp";
export * from "./keys";
export * from "./triggers";
export * from "./queue";
export * from "./versions";
export * from "./journal";
export * from "./models";
