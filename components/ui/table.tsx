// Tables in shadcn's style on Tailwind: the native elements (so rows, cells and column headers keep the roles a
// screen reader and a test find), one look per density. "page" is a page's main list; "compact" sits in a panel.
// Cells space their columns themselves, so a caller adds only what is particular to a column. For client components
// (the density reaches the cells by context), as every table of the studio is.
import { createContext, useContext, type ComponentProps, type ReactNode } from "react";

type Density = "page" | "compact";

const looks = {
  page: {
    table: "text-sm",
    header: "border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400 dark:border-zinc-800",
    row: "border-b border-zinc-100 hover:bg-zinc-50 dark:border-zinc-900 dark:hover:bg-zinc-900",
    cell: "py-2 pr-6 last:pr-0",
  },
  compact: {
    table: "text-xs",
    header: "text-zinc-500 dark:text-zinc-400",
    row: "border-t border-zinc-100 dark:border-zinc-900",
    cell: "py-1 pr-2 last:pr-0",
  },
} as const;

const DensityContext = createContext<Density>("page");
// A row in the header takes the header's look; only body rows get borders and hover.
const InHeader = createContext(false);

export function Table({ density = "page", className = "", ...props }: ComponentProps<"table"> & { density?: Density }) {
  return (
    <DensityContext.Provider value={density}>
      <table className={`w-full text-left ${looks[density].table} ${className}`} {...props} />
    </DensityContext.Provider>
  );
}

export function TableHeader({ className = "", ...props }: ComponentProps<"thead">) {
  const density = useContext(DensityContext);
  return (
    <InHeader.Provider value={true}>
      <thead className={`${looks[density].header} ${className}`} {...props} />
    </InHeader.Provider>
  );
}

export function TableBody(props: ComponentProps<"tbody">) {
  return <tbody {...props} />;
}

export function TableRow({ className = "", ...props }: ComponentProps<"tr">) {
  const density = useContext(DensityContext);
  const inHeader = useContext(InHeader);
  return <tr className={`${inHeader ? "" : looks[density].row} ${className}`} {...props} />;
}

/** A column's header: scoped to its column unless told otherwise. */
export function TableHead({ className = "", scope = "col", ...props }: ComponentProps<"th">) {
  const density = useContext(DensityContext);
  return <th scope={scope} className={`font-medium ${looks[density].cell} ${className}`} {...props} />;
}

export function TableCell({ className = "", ...props }: ComponentProps<"td">) {
  const density = useContext(DensityContext);
  return <td className={`${looks[density].cell} ${className}`} {...props} />;
}

export function TableCaption({ className = "", ...props }: ComponentProps<"caption">) {
  return <caption className={className} {...props} />;
}

/** The one row of a table with nothing to list: a sentence across every column that says why, or what to do. */
export function TableEmpty({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="py-4 text-sm text-zinc-600 dark:text-zinc-400">
        {children}
      </td>
    </tr>
  );
}
