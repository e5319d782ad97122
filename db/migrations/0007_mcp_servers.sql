CREATE TABLE "mcp_servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"transport" text NOT NULL,
	"command" text,
	"args" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cwd" text,
	"env" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"url" text,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idle_stop_s" integer DEFAULT 600 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mcp_servers_name_check" CHECK (char_length("mcp_servers"."name") between 1 and 80 and "mcp_servers"."name" = btrim("mcp_servers"."name")),
	CONSTRAINT "mcp_servers_transport_check" CHECK (("mcp_servers"."transport" = 'stdio' and "mcp_servers"."command" is not null and "mcp_servers"."url" is null) or ("mcp_servers"."transport" = 'http' and "mcp_servers"."url" is not null and "mcp_servers"."command" is null)),
	CONSTRAINT "mcp_servers_idle_check" CHECK ("mcp_servers"."idle_stop_s" between 0 and 86400)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_servers_name_idx" ON "mcp_servers" USING btree (lower("name"));