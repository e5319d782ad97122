// The starters "New agent" offers (R-template-file): one declaration per file in the repository's templates/ folder,
// without a model (the studio picks it, R-template-model) and with a one-line purpose as its description. Read on
// every listing, so a template added to the folder is offered without a restart. Pure but for reading the folder.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { declarationSchema, parseDeclaration, type AgentDeclaration, type Problem } from "@/server/agents/declaration";

/** A template's id is its file's stem: what the gallery sends back to make an agent of it. */
export const TEMPLATE_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The declaration's fields but the model; the description is the purpose, one line a card can show whole. */
const templateSchema = declarationSchema.omit({ model: true }).extend({
  description: z
    .string({ error: "write the template's purpose as one line" })
    .trim()
    .min(1, "write the template's purpose as one line")
    .max(200, "keep the purpose to one line of at most 200 characters")
    .refine((text) => !/[\r\n]/.test(text), "keep the purpose to one line"),
});

const PLACEHOLDER = { provider: "openai-compatible", model: "placeholder", base_url: "http://127.0.0.1/v1" };

export type Template = {
  id: string;
  /** The declaration without a model, its defaults filled. */
  declaration: Omit<AgentDeclaration, "model">;
};

export type TemplateFile = { id: string; template: Template | null; problems: Problem[] };

/** The templates folder: templates/ beside the studio's package.json, where `npm start` runs. */
export function templatesDir(): string {
  return path.join(process.cwd(), "templates");
}

/** One template file's text, checked: its shape as a declaration (model aside) and its purpose. */
export function parseTemplate(id: string, text: string): TemplateFile {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    return { id, template: null, problems: [{ path: "", message: `This file is not JSON (${(err as Error).message}).` }] };
  }
  if (input && typeof input === "object" && "model" in input) {
    return { id, template: null, problems: [{ path: "model", message: "A template names no model: the studio gives the agent its first model connection; remove model." }] };
  }
  const parsed = templateSchema.safeParse(input);
  if (!parsed.success) {
    // The declaration's own sentences, for the same fields, with a placeholder model so only the file's faults show.
    const own = parseDeclaration({ ...(input as object), model: PLACEHOLDER }).problems.filter((p) => !p.path.startsWith("model") && p.path !== "description");
    const purpose = parsed.error.issues.filter((i) => i.path[0] === "description").map((i) => ({ path: "description", message: `${i.message}.` }));
    return { id, template: null, problems: [...own, ...purpose] };
  }
  return { id, template: { id, declaration: parsed.data }, problems: [] };
}

/** Every file of the folder, in name order; a file that is not a usable template is there with its problems. */
export async function readTemplates(dir = templatesDir()): Promise<TemplateFile[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((name) => name.endsWith(".json")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return Promise.all(
    names.map(async (name) => {
      const id = name.slice(0, -".json".length);
      if (!TEMPLATE_ID.test(id)) {
        return { id, template: null, problems: [{ path: "", message: `${name} is not a template's file name: use lower-case letters, digits and dashes, e.g. inbox-triage.json.` }] };
      }
      return parseTemplate(id, await fs.readFile(path.join(dir, name), "utf8"));
    }),
  );
}
