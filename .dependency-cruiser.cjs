// The one-way layers of README's Map, checked by `npm run lint:layers` (and by `npm test`): a module may import
// its own layer and the layers listed before it, never one listed after it, and no import cycle anywhere, type
// imports included (a cycle through types is still two modules that cannot change apart).
// Edit LAYERS when a folder is added or a layer moves; README's Map says the same order in words.

/** Bottom first. Members of one layer are peers: they may not import each other either. */
const LAYERS = [
  {
    leaves: [
      "^server/env(\\.test)?\\.ts$",
      "^server/errors(\\.test)?\\.ts$",
      "^server/startup-state\\.ts$",
      "^server/operations/",
      "^server/http/",
    ],
  },
  { db: ["^db/", "^server/db\\.ts$"] },
  { metrics: ["^server/metrics/"] },
  { input: ["^server/input/"] },
  { audit: ["^server/audit/"] },
  { secrets: ["^server/secrets/"] },
  { "error-report": ["^server/error-report(\\.test)?\\.ts$"] },
  { telemetry: ["^server/telemetry/"] },
  { auth: ["^server/auth/"] },
  { host: ["^server/host/"] },
  { mcp: ["^server/mcp/"] },
  { tree: ["^server/tree/"] },
  { system: ["^server/system/"] },
  { catalog: ["^server/catalog/"] },
  { agents: ["^server/agents/"] },
  { calls: ["^server/calls/"] },
  { keys: ["^server/keys/"] },
  { models: ["^server/models/"] },
  { runtime: ["^server/runtime/"] },
  { triggers: ["^server/triggers/"] },
  { start: ["^server/start/"], templates: ["^server/templates/"] },
  { trpc: ["^server/trpc/"], api: ["^server/api/"], cli: ["^server/cli/"], startup: ["^server/startup\\.ts$", "^server/startup-idle\\.ts$"] },
  { components: ["^components/"] },
  { app: ["^app/"] },
];

/** Pure modules written for the server and the browser alike: the only server values components import. */
const SHARED = [
  "^server/errors\\.ts$",
  "^server/auth/roles\\.ts$",
  "^server/secrets/names\\.ts$",
  "^server/tree/names\\.ts$",
  "^server/tree/project-names\\.ts$",
  "^server/tree/schema-diff\\.ts$",
  "^server/agents/permissions\\.ts$",
  "^server/agents/declaration\\.ts$",
  "^server/models/presets\\.ts$",
  "^server/models/price-words\\.ts$",
];

const members = LAYERS.map((layer) => Object.entries(layer).map(([name, paths]) => ({ name, paths })));
const above = (index) => members.slice(index + 1).flat();

const layerRules = members.flatMap((layer, index) =>
  layer.map((member) => {
    const higher = above(index);
    const peers = layer.filter((other) => other !== member);
    return {
      name: `layer-${member.name}`,
      severity: "error",
      comment:
        `${member.name} may import only itself and the layers below it (README's Map), not ` +
        `${[...peers, ...higher].map((m) => m.name).join(", ")}: move the shared piece down, or pass it in from above.`,
      from: { path: member.paths },
      to: { path: [...peers, ...higher].flatMap((m) => m.paths) },
    };
  }),
).filter((rule) => rule.to.path.length > 0);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      severity: "error",
      comment: "These modules import each other, directly or through others: break the cycle so each can change alone.",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "in-a-layer",
      severity: "error",
      comment: "This module is in no layer, so nothing checks its imports: add its folder to LAYERS in .dependency-cruiser.cjs.",
      from: { path: "^(server|db|components|app)/", pathNot: ["^server/toolhost/", ...members.flat().flatMap((m) => m.paths)] },
      to: { path: "^(server|db|components|app)/" },
    },
    {
      name: "components-through-trpc",
      severity: "error",
      comment:
        "The browser reaches the server only through tRPC (server/trpc): import a server type with `import type`, " +
        "or a value from one of the modules written for both sides (SHARED in .dependency-cruiser.cjs).",
      from: { path: "^components/" },
      to: { path: "^(server|db)/", pathNot: ["^server/trpc/", ...SHARED], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "pages-ask-for-the-open-database",
      severity: "error",
      comment:
        "Every page imports server/db.ts for the open handle: it imports the drivers, migrations and the environment's " +
        "schema only inside the call that opens the database, so no page's bundle carries them (R-boot-page-light).",
      from: { path: "^server/db\\.ts$" },
      to: { path: "^(db/client|server/env)\\.ts$", dependencyTypesNot: ["dynamic-import", "type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|\\.quiver)/" },
    // Type-only imports count: a type shared across a seam ties the two sides as surely as a value.
    tsPreCompilationDeps: true,
    // Resolves the `@/` alias exactly as TypeScript does.
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    skipAnalysisNotInRules: true,
  },
};
