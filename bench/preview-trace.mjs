// `npm run bench:preview -- --trace`: where the page's main thread spends the time of each keystroke-to-preview,
// from a Chromium performance trace (timeline and V8's sampling profiler) taken while the bench types. It prints the
// busy time of the main thread inside two windows of every burst, by what Chromium was doing and by whose script
// ran: from the last key to the request sent, and from the answer to the preview painted. The stages of each burst
// (stagesOf, printStages) are printed on every run, traced or not: they come from the page's own clocks.
import fs from "node:fs";
import path from "node:path";

export const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink.user_timing",
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
];

/** The bench's times are the page's performance.now(); a mark the page makes says where that clock sits in the trace. */
export const ALIGN_MARK = "quiver-bench-align";

// Which library a built chunk holds, read once per file from the build the bench serves.
function chunkOwner(root, url, cache) {
  if (!url) return "(native)";
  if (cache.has(url)) return cache.get(url);
  let owner = "app";
  const m = /\/_next\/(static\/chunks\/[^?#]+)/.exec(url);
  const file = m && path.join(root, ".next", m[1]);
  if (file && fs.existsSync(file)) {
    const text = fs.readFileSync(file, "utf8");
    if (/MonacoEnvironment|monaco-editor/.test(text)) owner = "Monaco";
    else if (/__reactFiber|Minified React error/.test(text)) owner = "React";
    else if (/TRPCClientError/.test(text)) owner = "tRPC";
    else owner = `app ${path.basename(file)}`;
  } else if (!m) owner = url.startsWith("http") ? "page" : "(native)";
  cache.set(url, owner);
  return owner;
}

/** Busy time by name inside [from, to] (µs, trace clock), counting each event's own time without its children's. */
function selfTimes(events, from, to) {
  const byName = new Map();
  // Events nest on one thread: walk them sorted, keeping the stack of open ones.
  const stack = [];
  const clip = (a, b) => Math.max(0, Math.min(b, to) - Math.max(a, from));
  const add = (name, us) => byName.set(name, (byName.get(name) ?? 0) + us);
  const close = (until) => {
    while (stack.length && stack.at(-1).end <= until) {
      const done = stack.pop();
      add(done.label, clip(done.cursor, done.end));
      if (stack.length) stack.at(-1).cursor = done.end;
    }
  };
  for (const e of events) {
    if (e.ts + e.dur < from || e.ts > to) continue;
    close(e.ts);
    if (stack.length) {
      const parent = stack.at(-1);
      add(parent.label, clip(parent.cursor, e.ts));
    }
    stack.push({ label: e.label, end: e.ts + e.dur, cursor: e.ts });
  }
  close(Infinity);
  return byName;
}

function label(e) {
  const d = e.args?.data ?? {};
  if (e.name === "EventDispatch") return `event ${d.type}`;
  if (e.name === "FunctionCall") return `script (${d.functionName || "anonymous"})`;
  if (e.name === "TimerFire") return "timer";
  if (e.name === "FireAnimationFrame") return "animation frame";
  if (e.name === "RunMicrotasks" || e.name === "v8.runMicrotasks") return "microtasks";
  if (/GC|Scavenge|MarkCompact/.test(e.name)) return "garbage collection";
  if (["UpdateLayoutTree", "RecalculateStyles"].includes(e.name)) return "style";
  if (e.name === "Layout") return "layout";
  if (["Paint", "PrePaint", "Layerize", "Commit", "UpdateLayer", "PaintImage", "CompositeLayers"].includes(e.name)) return "paint";
  if (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") return "task (other)";
  return e.name;
}

/**
 * Sums, over the windows (page clock, ms), the main thread's busy time by activity and the sampled script time by
 * whose chunk ran it; each figure is per window, the median of the windows' sums being what a burst typically meets.
 */
export function summarise(root, trace, windows, alignStart) {
  const events = trace.traceEvents ?? trace;
  const align = events.find((e) => e.name === ALIGN_MARK);
  if (!align) throw new Error("the trace holds no alignment mark");
  const pid = align.pid;
  const main = events.find((e) => e.pid === pid && e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const tid = main?.tid ?? align.tid;
  // The page's clock in the trace: the mark's time stamp there, less its startTime in the page.
  const origin = align.ts - (align.args?.data?.startTime ?? alignStart) * 1000;
  const toTrace = (ms) => origin + ms * 1000;

  const slices = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.dur > 0)
    .map((e) => ({ ts: e.ts, dur: e.dur, label: label(e) }))
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);

  // Samples: the CPU profile's nodes and deltas, re-timed on the trace clock.
  const nodes = new Map();
  const samples = [];
  // Workers (Monaco's) are profiled too: only the main thread's profile counts, found by its id.
  const profile = events.find((e) => e.pid === pid && e.tid === tid && e.name === "Profile");
  let clock = profile?.args?.data?.startTime ?? 0;
  for (const e of events) {
    if (!profile || e.pid !== pid || e.name !== "ProfileChunk" || e.id !== profile.id) continue;
    const data = e.args?.data ?? {};
    for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const ids = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < ids.length; i++) {
      clock += deltas[i] ?? 0;
      samples.push({ ts: clock, id: ids[i] });
    }
  }
  samples.sort((a, b) => a.ts - b.ts);
  const owners = new Map();
  const ownerOf = (id) => {
    const node = nodes.get(id);
    const frame = node?.callFrame;
    if (!frame) return "(unknown)";
    if (["(idle)", "(program)", "(garbage collector)", "(root)"].includes(frame.functionName)) return frame.functionName;
    return chunkOwner(root, frame.url, owners);
  };

  const perWindow = windows.map(({ from, to }) => {
    const a = toTrace(from);
    const b = toTrace(to);
    const busy = selfTimes(slices, a, b);
    const script = new Map();
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i];
      if (s.ts < a || s.ts >= b) continue;
      const next = samples[i + 1]?.ts ?? s.ts;
      const owner = ownerOf(s.id);
      if (owner === "(idle)") continue;
      script.set(owner, (script.get(owner) ?? 0) + Math.min(next, b) - s.ts);
    }
    return { span: b - a, busy, script };
  });
  const medianOf = (values) => {
    const sorted = [...values].sort((x, y) => x - y);
    return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
  };
  const table = (key) => {
    const names = new Set(perWindow.flatMap((w) => [...w[key].keys()]));
    return [...names]
      .map((name) => {
        const values = perWindow.map((w) => (w[key].get(name) ?? 0) / 1000);
        return { name, mean: values.reduce((s, v) => s + v, 0) / values.length, median: medianOf(values) };
      })
      .filter((row) => row.mean >= 0.05)
      .sort((x, y) => y.mean - x.mean);
  };
  const busyTotal = perWindow.map((w) => [...w.busy.values()].reduce((s, v) => s + v, 0) / 1000);
  return {
    span: medianOf(perWindow.map((w) => w.span / 1000)),
    busy: medianOf(busyTotal),
    busyMean: busyTotal.reduce((s, v) => s + v, 0) / Math.max(1, busyTotal.length),
    activities: table("busy"),
    scripts: table("script"),
  };
}

export function printSummary(title, summary) {
  const rows = (list) => list.slice(0, 12).map((r) => `${r.name} ${r.mean.toFixed(2)} ms (median ${r.median.toFixed(2)})`).join("; ");
  console.log(`  ${title}: median window ${summary.span.toFixed(1)} ms, main thread busy in it: median ${summary.busy.toFixed(1)} ms, mean ${summary.busyMean.toFixed(1)} ms`);
  console.log(`    by activity (mean per window): ${rows(summary.activities)}`);
  console.log(`    sampled script by chunk (mean per window): ${rows(summary.scripts)}`);
}

/**
 * One burst's path from its last key to the preview painted, in stages (ms): the pause and whatever delayed its timer,
 * the browser sending the request, the server (its route's session check and derivation from Server-Timing, the rest of
 * its handler, and Next and the network around the handler), the answer's download, React's commit and the frame.
 */
export function stagesOf(key, answer) {
  const server = answer.firstByte - answer.sent;
  const handler = answer.server.handler ?? 0;
  const session = answer.server.session ?? 0;
  const derive = answer.server.derive ?? 0;
  return {
    "key to fetch": answer.start - key.at,
    "fetch to sent": answer.sent - answer.start,
    "server: session": session,
    "server: derive": derive,
    "server: rest of handler": Math.max(0, handler - session - derive),
    "server: outside handler": Math.max(0, server - handler),
    download: answer.end - answer.firstByte,
    "answer to commit": key.committed - answer.end,
    "commit to paint": key.painted - key.committed,
  };
}

const pick = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
};

/** Each stage's p50 and p95, then where the slowest tenth of the bursts spent their time against the median burst. */
export function printStages(stages) {
  if (stages.length === 0) return;
  const names = Object.keys(stages[0]);
  const total = (s) => names.reduce((sum, name) => sum + s[name], 0);
  const ordered = [...stages].sort((a, b) => total(a) - total(b));
  const slowest = ordered.slice(Math.floor(ordered.length * 0.9));
  const mean = (list, name) => list.reduce((sum, s) => sum + s[name], 0) / list.length;
  console.log(`  by stage (p50 / p95): ${names.map((n) => `${n} ${pick(stages.map((s) => s[n]), 0.5).toFixed(1)} / ${pick(stages.map((s) => s[n]), 0.95).toFixed(1)}`).join("; ")}`);
  console.log(
    `  the slowest ${slowest.length} bursts (${slowest.map((s) => total(s).toFixed(0)).join(", ")} ms), mean per stage against the median burst's: ` +
      names.map((n) => `${n} ${mean(slowest, n).toFixed(1)} (${pick(stages.map((s) => s[n]), 0.5).toFixed(1)})`).join("; "),
  );
}
