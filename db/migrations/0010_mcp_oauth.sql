CREATE TABLE "mcp_oauth_grants" (
	"server_id" uuid PRIMARY KEY NOT NULL,
	"bound" text NOT NULL,
	"tokens_ciphertext" text,
	"client_ciphertext" text,
	"discovery" jsonb,
	"signed_in_by" text,
	"signed_in_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone,
	"outcome" text,
	"outcome_ok" boolean,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_oauth_pending" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"server_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"verifier_ciphertext" text NOT NULL,
	"discovery" jsonb,
	"redirect_url" text NOT NULL,
	"bound" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "auth" jsonb;--> statement-breakpoint
ALTER TABLE "mcp_oauth_grants" ADD CONSTRAINT "mcp_oauth_grants_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_oauth_pending" ADD CONSTRAINT "mcp_oauth_pending_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_oauth_pending_expires_idx" ON "mcp_oauth_pending" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_auth_check" CHECK ("mcp_servers"."auth" is null or "mcp_servers"."transport" = 'http');