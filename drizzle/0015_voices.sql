CREATE TABLE "voices" (
	"id" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"name" text NOT NULL,
	"embeddings" jsonb NOT NULL,
	"speech_seconds" double precision NOT NULL,
	"samples" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "voices_account_name_idx" ON "voices" USING btree ("account","name");--> statement-breakpoint
CREATE INDEX "voices_account_created_idx" ON "voices" USING btree ("account","created_at");