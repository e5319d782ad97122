// A schema's fields as a table: name, type (a named schema links to its entry below), whether it must be sent, and
// what it is. Server-rendered: the reference page has nothing to click but links.
import type { Field } from "./openapi-view";

export function FieldTable({ fields, label }: { fields: Field[]; label: string }) {
  return (
    <table aria-label={label} className="w-full text-left text-sm">
      <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400 dark:border-zinc-800">
        <tr>
          <th scope="col" className="py-1.5 pr-4 font-medium">Field</th>
          <th scope="col" className="py-1.5 pr-4 font-medium">Type</th>
          <th scope="col" className="py-1.5 font-medium">What it is</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field.name} className="border-b border-zinc-100 align-top dark:border-zinc-900">
            <td className="py-1.5 pr-4 font-mono text-xs whitespace-nowrap">
              {field.name}
              {field.required ? <span className="ml-1 text-[10px] font-sans uppercase tracking-wide text-rose-600 dark:text-rose-400">required</span> : null}
            </td>
            <td className="py-1.5 pr-4 text-xs text-zinc-700 dark:text-zinc-300">
              {field.type.ref ? (
                <a className="text-accent dark:text-indigo-400 hover:underline" href={`#schema-${field.type.ref}`}>
                  {field.type.words}
                </a>
              ) : (
                field.type.words
              )}
            </td>
            <td className="py-1.5 text-zinc-600 dark:text-zinc-400">{field.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
