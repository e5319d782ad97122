// `$ref` written out in full: every reference inside the tool's own schema replaced by what it points at
// (`$defs`, draft-07 `definitions`, or any other path such as `#/$defs/A/properties/b`), and the `$defs` dropped.
// A provider takes a schema without references more reliably than one with them, and a preview reads better.
import { SchemaProblem, describePath, isSchema, mapSubschemas, subject, without, type Schema, type Step, type SubSchema } from "./walk";

/** Parts a schema may grow to once its references are written out: shared parts are copied, and copies multiply. */
export const MAX_PARTS = 20_000;
/** Levels of nesting; deeper than any tool needs, and far short of a stack overflow. */
export const MAX_DEPTH = 64;

const REFS_NOT_RESOLVED = ["$dynamicRef", "$recursiveRef"];

/** The schema with every reference inlined (R-mcp-schema-normalise); a cycle or an outside reference is refused. */
export function inlineRefs(root: Schema): Schema {
  const base = typeof root.$id === "string" ? root.$id.replace(/#.*$/, "") : null;
  const steps: Step[] = [];
  /** The references being written out, innermost last, and how deep in `steps` each began. */
  const expanding: { pointer: string; from: number }[] = [];
  let parts = 0;

  const children = (node: Schema): Schema => {
    return mapSubschemas(without(node, "$defs", "definitions"), (sub, step) => {
      steps.push(step);
      try {
        return visit(sub);
      } finally {
        steps.pop();
      }
    });
  };

  const visit = (node: SubSchema): SubSchema => {
    parts += 1;
    if (parts > MAX_PARTS) {
      throw new SchemaProblem(
        `The schema grows past ${MAX_PARTS} parts once its references are written out; a model cannot be given a schema that large.`,
      );
    }
    if (steps.length > MAX_DEPTH) {
      throw new SchemaProblem(`The schema nests deeper than ${MAX_DEPTH} levels; a model cannot be given a schema that deep.`);
    }
    if (typeof node === "boolean") return node;
    const unresolved = REFS_NOT_RESOLVED.find((keyword) => keyword in node);
    if (unresolved) {
      throw new SchemaProblem(`${subject(steps)} uses ${unresolved}, which Quiver does not resolve; only $ref to a path in the schema is written out.`);
    }
    if (typeof node.$ref !== "string") return children(node);

    const { $ref: ref, ...siblings } = node;
    const pointer = localPointer(ref as string, base, steps);
    const open = expanding.findIndex((frame) => frame.pointer === pointer);
    if (open >= 0) {
      const through = describePath(steps.slice(expanding[open]!.from));
      const name = nameOf(pointer);
      throw new SchemaProblem(
        `${name} refers to itself${through ? ` through ${through}` : ""}; a model cannot be given a recursive schema.`,
      );
    }
    const target = resolvePointer(root, pointer, ref as string, steps);
    expanding.push({ pointer, from: steps.length });
    const resolved = visit(target);
    expanding.pop();
    return mergeSiblings(resolved, children(siblings));
  };

  const result = visit(root);
  return typeof result === "boolean" ? {} : result;
}

/** The JSON Pointer a reference names inside this document, or a refusal of one that leaves it. */
function localPointer(ref: string, base: string | null, steps: readonly Step[]): string {
  const hash = ref.indexOf("#");
  const document = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? "" : ref.slice(hash + 1);
  if (document !== "" && document !== base) {
    throw new SchemaProblem(
      `${subject(steps)} refers to ${ref}, outside the schema; a model can only be given a schema that carries every part it uses.`,
    );
  }
  if (fragment !== "" && !fragment.startsWith("/")) {
    throw new SchemaProblem(`${subject(steps)} refers to ${ref} by an anchor name; Quiver writes out only references by path (#/...).`);
  }
  try {
    return decodeURIComponent(fragment);
  } catch {
    throw new SchemaProblem(`${subject(steps)} refers to ${ref}, which is not a path Quiver can read.`);
  }
}

function resolvePointer(root: Schema, pointer: string, ref: string, steps: readonly Step[]): SubSchema {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isSchema(node) && Object.hasOwn(node, key)) node = node[key];
    else node = undefined;
    if (node === undefined) break;
  }
  if (typeof node === "boolean" || isSchema(node)) return node;
  throw new SchemaProblem(`${subject(steps)} refers to ${ref}, which the schema does not contain.`);
}

/** "Node" for `/$defs/Node`: the last part of the path, as the schema's author named it. */
function nameOf(pointer: string): string {
  if (pointer === "") return "The input";
  const last = pointer.split("/").pop()!;
  return last.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * Keywords beside a `$ref` apply together with its target (2020-12; pydantic and zod put a description there), so
 * they are merged in, the sibling winning on the same keyword; properties and required are joined.
 */
function mergeSiblings(target: SubSchema, siblings: Schema): SubSchema {
  if (Object.keys(siblings).length === 0) return target;
  if (target === true) return siblings;
  if (target === false) return false;
  const merged: Schema = { ...target, ...siblings };
  if (isSchema(target.properties) && isSchema(siblings.properties)) merged.properties = { ...target.properties, ...siblings.properties };
  if (Array.isArray(target.required) && Array.isArray(siblings.required)) {
    merged.required = [...new Set([...target.required, ...siblings.required])];
  }
  return merged;
}
