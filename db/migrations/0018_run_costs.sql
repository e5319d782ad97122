ALTER TABLE "runs" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "price_input" bigint;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "price_output" bigint;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "cost" numeric(30, 12) GENERATED ALWAYS AS (CASE WHEN price_input IS NULL OR price_output IS NULL THEN NULL ELSE ((tokens_in::numeric * price_input + tokens_out::numeric * price_output) / 1000000000000)::numeric(30,12) END) STORED;--> statement-breakpoint
ALTER TABLE "model_connections" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "model_connections" ADD COLUMN "prices" jsonb DEFAULT '{}'::jsonb NOT NULL;