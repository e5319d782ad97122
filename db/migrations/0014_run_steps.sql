CREATE TABLE "run_steps" (
	"run_id" uuid NOT NULL,
	"step" integer NOT NULL,
	"call_index" integer NOT NULL,
	"call_id" text,
	"operation" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"result" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "run_steps_key" PRIMARY KEY("run_id","step","call_index")
);
--> statement-breakpoint
ALTER TABLE "run_steps" ADD CONSTRAINT "run_steps_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;