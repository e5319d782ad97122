// ESLint flat config: Next's core web vitals and TypeScript rules over the whole repository.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".quiver/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "db/migrations/**"],
  },
];

export default config;
