CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"agents" jsonb NOT NULL,
	"scopes" jsonb NOT NULL,
	"wait_limit_s" integer DEFAULT 300 NOT NULL,
	"rate_per_minute" integer DEFAULT 60 NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "api_keys_wait_check" CHECK ("api_keys"."wait_limit_s" between 1 and 3600),
	CONSTRAINT "api_keys_rate_check" CHECK ("api_keys"."rate_per_minute" between 1 and 100000)
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "via" text DEFAULT 'playground' NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "via_key_id" uuid;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "via_key_name" text;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_name_idx" ON "api_keys" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_idx" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "runs_via_idx" ON "runs" USING btree ("via","started_at");