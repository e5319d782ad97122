CREATE TABLE "run_words" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"call_id" text,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_words" ADD CONSTRAINT "run_words_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "run_words_call_idx" ON "run_words" USING btree ("run_id","call_id");--> statement-breakpoint
CREATE INDEX "run_words_run_idx" ON "run_words" USING btree ("run_id","id");