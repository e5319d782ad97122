// A PostgreSQL database of a test's own, on the server the suite was given: for tests whose rows are studio-wide
// (published versions, the run queue under kills), which would meet other files' rows in the shared database.
import pg from "pg";

export type OwnDatabase = { url: string; create: () => Promise<void>; drop: () => Promise<void> };

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** `name` must be a plain identifier; create() drops a leftover of an earlier, killed run first. */
export function ownDatabase(serverUrl: string, name: string): OwnDatabase {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`a database name of lower-case letters, digits and _: ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  return {
    url: url.toString(),
    create: async () => {
      await drop();
      await admin(serverUrl, `CREATE DATABASE ${name}`);
    },
    drop,
  };
}
