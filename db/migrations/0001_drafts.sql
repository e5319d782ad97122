CREATE TABLE "drafts" (
	"user_id" text NOT NULL,
	"path" text NOT NULL,
	"source" text NOT NULL,
	"base_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drafts_user_id_path_pk" PRIMARY KEY("user_id","path")
);
