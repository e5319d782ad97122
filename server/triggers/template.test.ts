// A webhook's message made from its request (R-trigger-webhook-body, R-trigger-webhook-template): JSON indented, text
// as it is, form fields as an object; a template's fields by their path, a missing one empty and named.
import { describe, expect, it } from "vitest";
import { BadHookBody, hookMessage } from "./body";
import { render, templateProblem } from "./template";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the message a webhook's body makes", () => {
  it("indents JSON, whatever Content-Type a curl -d gave it", () => {
    const json = '{"issue":{"title":"Build broke","labels":["ci"]}}';
    const pretty = JSON.stringify(JSON.parse(json), null, 2);
    expect(hookMessage(bytes(json), "application/json", null).message).toBe(pretty);
    expect(hookMessage(bytes(json), "application/x-www-form-urlencoded", null).message).toBe(pretty);
  });

  it("keeps text as it came and reads form fields as an object", () => {
    expect(hookMessage(bytes("Deploy finished."), "text/plain", null).message).toBe("Deploy finished.");
    expect(hookMessage(bytes("text=hello&user=ann"), "application/x-www-form-urlencoded", "{{body.user}} says {{body.text}}").message).toBe("ann says hello");
  });

  it("refuses JSON that is not, an empty body, and bytes that are not UTF-8, each with its code", () => {
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as BadHookBody).code;
      }
      return null;
    };
    expect(code(() => hookMessage(bytes('{"cut": '), "application/json", null))).toBe("INVALID_JSON");
    expect(code(() => hookMessage(bytes("  "), "text/plain", null))).toBe("EMPTY_BODY");
    expect(code(() => hookMessage(new Uint8Array([0xff, 0xfe, 0x00]), "text/plain", null))).toBe("NOT_TEXT");
    expect(code(() => hookMessage(bytes('{"a":1}'), "application/json", "{{body.b}}"))).toBe("EMPTY_MESSAGE");
    expect(code(() => hookMessage(bytes("x".repeat(100_001)), "text/plain", null))).toBe("MESSAGE_TOO_LONG");
  });
});

describe("a webhook's template", () => {
  const body = { issue: { title: "Build broke", number: 42, open: true, labels: ["ci", "urgent"] }, items: [{ name: "first" }] };

  it("takes nested fields, array items by number, and the whole body", () => {
    expect(render("#{{body.issue.number}} {{ body.issue.title }} ({{body.items.0.name}})", body)).toEqual({ message: "#42 Build broke (first)", missing: [] });
    expect(render("{{body.issue.labels}}", body).message).toBe(JSON.stringify(["ci", "urgent"], null, 2));
    expect(render("open: {{body.issue.open}}", body).message).toBe("open: true");
    expect(render("{{body}}", "plain text").message).toBe("plain text");
  });

  it("renders a field the request lacks as empty and names it once", () => {
    expect(render("{{body.issue.author}}|{{body.nope.deeper}}|{{body.issue.author}}", body)).toEqual({ message: "||", missing: ["body.issue.author", "body.nope.deeper"] });
    expect(render("{{body.title}}", "a text body has no fields").missing).toEqual(["body.title"]);
  });

  it("refuses what is not a field of the request, and braces left open", () => {
    expect(templateProblem("Title: {{body.issue.title}}")).toBeNull();
    expect(templateProblem("{{headers.x}}")).toMatch(/^“\{\{headers\.x\}\}” is not a field of the request; write \{\{body\}\}/);
    expect(templateProblem("{{body.a b}}")).toMatch(/is not a field of the request/);
    expect(templateProblem("{{body.title")).toMatch(/no “}}” closing it/);
    expect(templateProblem("body.title}}")).toMatch(/no “{{” opening it/);
  });
});
