// /tools/<file>: the editor for one file of the tool tree (other files open beside it as tabs).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ToolEditorLoader } from "@/components/editor/tool-editor-loader";
import { Forbidden } from "@/components/frame/forbidden";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";
import { fileNameProblem } from "@/server/tree/names";

type Props = { params: Promise<{ file: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decodeURIComponent((await params).file) };
}

export default async function ToolFilePage({ params }: Props) {
  const file = decodeURIComponent((await params).file);
  if (fileNameProblem(file)) notFound();
  const user = await pageUser(`/tools/${encodeURIComponent(file)}`);
  if (!hasRole(user, "developer")) return <Forbidden needs="developer" what="Editing tool files" />;
  return <ToolEditorLoader initialPath={file} />;
}
