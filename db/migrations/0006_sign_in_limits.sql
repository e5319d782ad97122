CREATE TABLE "sign_in_limit" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"since" bigint NOT NULL,
	"not_before" bigint NOT NULL
);
