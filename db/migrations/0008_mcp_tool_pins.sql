CREATE TABLE "mcp_tool_pins" (
	"pin" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"input_schema" jsonb NOT NULL,
	"pinned_at" timestamp with time zone DEFAULT now() NOT NULL
);
