// Input a procedure or an API route refused, as sentences (R-input-sentence): each zod issue becomes one sentence that
// names its field and says what to send instead; a message a schema's author wrote stays as written. The answer's
// message is the first sentence, and the forms get every issue at its path.
import { z } from "zod";
import { fieldName, TEXT_ISSUE } from "./text";

export type Issue = { path: string; message: string };

const english = z.locales.en().localeError;

/** Whether zod wrote this message itself (a schema's own sentence is kept as it is). */
function isDefault(issue: z.core.$ZodIssue): boolean {
  if (issue.code === "invalid_type") return issue.message.startsWith("Invalid input: expected ");
  if (issue.code === "custom") return issue.message === "Invalid input";
  const made = english(issue as Parameters<typeof english>[0]);
  return issue.message === (typeof made === "string" ? made : made?.message);
}

const KINDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  record: "an object",
  date: "a date (such as 2026-01-31T09:30:00Z)",
  null: "null",
};

const kind = (expected: string) => KINDS[expected] ?? expected;

const FORMATS: Record<string, string> = {
  uuid: "an id the studio made (a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e)",
  email: "an email address such as ann@example.com",
  url: "a URL such as https://example.com",
  datetime: "a date and time such as 2026-01-31T09:30:00Z",
};

const size = (n: number | bigint, origin: string) => {
  const unit = origin === "string" ? "character" : origin === "array" || origin === "set" ? "item" : null;
  return unit ? `${n} ${unit}${n === 1 || n === BigInt(1) ? "" : "s"}` : String(n);
};

/** What the issue says about its field, after the field's name. */
function problem(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.message.endsWith("received undefined")
        ? `is missing; send it as ${kind(issue.expected)}`
        : `must be ${kind(issue.expected)}; send it as ${kind(issue.expected)}`;
    case "too_small": {
      const least = size(issue.minimum, issue.origin);
      if (issue.origin === "string" && Number(issue.minimum) === 1) return "is empty; send at least one character";
      if (issue.origin === "string" || issue.origin === "array") return `is too short; send at least ${least}`;
      return `must be ${issue.inclusive === false ? "more than" : "at least"} ${least}; send a larger one`;
    }
    case "too_big": {
      const most = size(issue.maximum, issue.origin);
      if (issue.origin === "string" || issue.origin === "array") return `is too long; send at most ${most}`;
      return `must be ${issue.inclusive === false ? "less than" : "at most"} ${most}; send a smaller one`;
    }
    case "invalid_format":
      if (issue.format === "regex") return `is not in the form it must have (${issue.pattern}); send text of that form`;
      return `is not ${FORMATS[issue.format] ?? `a valid ${issue.format}`}; send one`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}; send that`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}; send one of them`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}; send one`;
    case "unrecognized_keys":
      return `has fields it does not take (${issue.keys.join(", ")}); send it without them`;
    case "invalid_key":
      return `has a key that ${issue.issues[0] ? problemOf(issue.issues[0]) : "is not allowed"}`;
    case "invalid_element":
      return `has an entry that ${issue.issues[0] ? problemOf(issue.issues[0]) : "is not allowed"}`;
    case "invalid_union":
      return "is in none of the forms it may take; send it as the form it belongs to describes";
    default:
      return "is not valid; send a value of the kind the field takes";
  }
}

/** An inner issue (a record's key) as the end of a sentence: its own words when its author wrote them. */
function problemOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "custom" && issue.params?.kind === TEXT_ISSUE) return issue.message;
  if (!isDefault(issue)) return `is refused: ${issue.message.replace(/\.$/, "")}`;
  return problem(issue);
}

/** One issue as a sentence that names its field. */
export function issueSentence(issue: z.core.$ZodIssue): string {
  // A record's bad key is reported at the key itself; the sentence names the object that holds it.
  const path = issue.code === "invalid_key" ? issue.path.slice(0, -1) : issue.path;
  const field = path.length > 0 ? fieldName(path) : "The input";
  if (issue.code === "custom" && issue.params?.kind === TEXT_ISSUE) {
    const within = issue.params.within as string | undefined;
    return within ? `${field}: ${within} ${issue.message}.` : `${field} ${issue.message}.`;
  }
  if (issue.code === "invalid_union") {
    // A union's own branch may carry its author's sentence ("A version is a commit hash or “working”.").
    const written = issue.errors.flat().find((inner) => !isDefault(inner));
    if (written) return written.message;
  }
  if (!isDefault(issue)) return issue.message;
  return `${field} ${problem(issue)}.`;
}

/** The issues for the forms, each at its path with its sentence. */
export function issueList(issues: readonly z.core.$ZodIssue[]): Issue[] {
  return issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issueSentence(issue) }));
}

/** The answer's message: the first issue's sentence, and how many other fields have problems too. */
export function inputSentence(issues: readonly z.core.$ZodIssue[]): string {
  const [first] = issues;
  if (!first) return "The input was refused; send it as the procedure describes.";
  const sentence = issueSentence(first);
  const key = (issue: z.core.$ZodIssue) => issue.path.map(String).join(".");
  const others = new Set(issues.map(key).filter((path) => path !== key(first))).size;
  if (others === 0) return sentence;
  return `${sentence} ${others === 1 ? "One more field has" : `${others} more fields have`} a problem too.`;
}
