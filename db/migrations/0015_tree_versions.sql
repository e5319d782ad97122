CREATE TABLE "tree_versions" (
	"number" integer PRIMARY KEY NOT NULL,
	"commit" text NOT NULL,
	"message" text NOT NULL,
	"author_name" text NOT NULL,
	"author_email" text NOT NULL,
	"files" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tree_versions_commit_unique" UNIQUE("commit")
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "tree_version" integer;