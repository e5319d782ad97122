import { describe, expect, it } from "vitest";
import { decodeEntities, htmlToText } from "./html";

describe("HTML as readable text", () => {
  it("drops scripts, styles and comments, whatever their case", () => {
    expect(htmlToText("<SCRIPT>x()</SCRIPT><style>p{}</style><!-- c --><p>kept</p>")).toBe("kept");
  });

  it("keeps preformatted text as it is", () => {
    expect(htmlToText("<p>a   b</p><pre>  x = 1\n    y &lt; 2</pre>")).toBe("a b\n\n  x = 1\n    y < 2");
  });

  it("keeps a link's address beside its text, resolved against the page", () => {
    expect(htmlToText('<a href="/x">X</a> <a href="#top">Top</a> <a href="javascript:go()">Go</a>', "https://e.org/a/")).toBe("X (https://e.org/x) Top Go");
  });

  it("decodes named and numeric entities, and leaves unknown ones alone", () => {
    expect(decodeEntities("&lt;&#65;&#x42;&eacute-ish &bogus;")).toBe("<AB&eacute-ish &bogus;");
  });
});
