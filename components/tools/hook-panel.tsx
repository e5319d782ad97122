// Beside hooks/tools.py in the editor: what the call hook is for and how it answers (R-perm-hook), since it has no
// schema to preview; a saved hook decides the very next call, and one that cannot decide refuses (R-perm-hook-fails-closed).
import { Shield } from "lucide-react";

export function HookPanel() {
  return (
    <section aria-label="Call hook" className="space-y-3 p-3 text-sm">
      <h2 className="flex items-center gap-1.5 font-medium">
        <Shield aria-hidden className="h-4 w-4 text-zinc-500 dark:text-zinc-400" /> The call hook
      </h2>
      <p>
        <code className="font-mono">check(call)</code> sees every call of every agent by name, arguments, source, agent and run before it
        runs, and answers <code className="font-mono">None</code> (the permissions decide), <code className="font-mono">&quot;allow&quot;</code>,{" "}
        <code className="font-mono">&quot;ask&quot;</code> or <code className="font-mono">Ask(&quot;why&quot;)</code>, or refuses with{" "}
        <code className="font-mono">raise Refused(&quot;why&quot;)</code>.
      </p>
      <p>Saved, it decides the very next call. A hook that cannot decide (a syntax error, no check, an exception, no answer in 10 s) refuses the call and says why.</p>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">Tools cannot write this file: it sits outside the tree, in hooks/ beside it.</p>
    </section>
  );
}
