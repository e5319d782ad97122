// HTML as readable text, by hand and on purpose small: scripts, styles and other invisible parts dropped, headings
// and list items marked, links kept as "text (address)", entities decoded, whitespace folded. Not a browser.

const INVISIBLE = /<(script|style|noscript|template|svg|head|iframe|object|canvas|select)\b[\s\S]*?<\/\1\s*>/gi;
const BLOCK = /<\/?(p|div|section|article|header|footer|nav|aside|main|ul|ol|table|thead|tbody|tfoot|blockquote|form|figure|figcaption|dl|fieldset|details|summary|address)\b[^>]*>/gi;

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", copy: "©", reg: "®", trade: "™", hellip: "…",
  mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", laquo: "«", raquo: "»", bull: "•",
  middot: "·", times: "×", divide: "÷", deg: "°", euro: "€", pound: "£", yen: "¥", cent: "¢", sect: "§", para: "¶",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, "");

function attribute(attrs: string, name: string): string | null {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? "") : null;
}

function linkText(attrs: string, inner: string, base: string | undefined): string {
  const label = decodeEntities(stripTags(inner)).replace(/\s+/g, " ").trim();
  const href = attribute(attrs, "href");
  if (!href || href.startsWith("#") || /^javascript:/i.test(href)) return label;
  let address = href;
  try {
    address = new URL(href, base).href;
  } catch {
    // not resolvable: keep it as written
  }
  if (!label) return address;
  return label === address || label === href ? label : `${label} (${address})`;
}

/** The page's text; `base` resolves relative links (the address the page came from). */
export function htmlToText(html: string, base?: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  const kept: string[] = [];
  let text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(INVISIBLE, "")
    // Preformatted text keeps its spaces and line breaks: set aside until the folding is done.
    .replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, inner: string) => `\n\n\u0000${kept.push(decodeEntities(stripTags(inner))) - 1}\u0000\n\n`)
    .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_, attrs: string, inner: string) => linkText(attrs, inner, base))
    .replace(/<img\b([^>]*)>/gi, (_, attrs: string) => {
      const alt = attribute(attrs, "alt")?.trim();
      return alt ? `[${alt}]` : "";
    })
    .replace(/<h([1-6])\b[^>]*>/gi, (_, level: string) => `\n\n${"#".repeat(Number(level))} `)
    .replace(/<\/h[1-6]\s*>/gi, "\n\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/li\s*>/gi, "")
    .replace(/<(br|hr)\b[^>]*>/gi, (_, tag: string) => (tag.toLowerCase() === "hr" ? "\n\n---\n\n" : "\n"))
    .replace(/<\/?(tr|dt|dd)\b[^>]*>/gi, "\n")
    .replace(/<\/?(td|th)\b[^>]*>/gi, " ")
    .replace(BLOCK, "\n\n");
  text = decodeEntities(stripTags(text))
    .replace(/[ \t\f\v\r\u00a0]+/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)] ?? "");
  const heading = title ? decodeEntities(stripTags(title)).replace(/\s+/g, " ").trim() : "";
  return heading && !text.startsWith(`# ${heading}`) ? `# ${heading}\n\n${text}` : text;
}
