CREATE TABLE "media_cache" (
	"id" text PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"link" text NOT NULL,
	"path" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transcript_cache" (
	"media_id" text PRIMARY KEY NOT NULL,
	"params" jsonb,
	"transcript" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"audio_seconds" real NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_ledger" (
	"id" text PRIMARY KEY NOT NULL,
	"api_key_id" text NOT NULL,
	"user_id" text NOT NULL,
	"prediction_id" text NOT NULL,
	"media_id" text,
	"audio_seconds" real NOT NULL,
	"amount" real NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_ledger_prediction_id_unique" UNIQUE("prediction_id")
);
--> statement-breakpoint
ALTER TABLE "transcript_cache" ADD CONSTRAINT "transcript_cache_media_id_media_cache_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media_cache"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_cache_namespace_link_idx" ON "media_cache" USING btree ("namespace","link");--> statement-breakpoint
CREATE INDEX "media_cache_expires_idx" ON "media_cache" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "usage_ledger_user_media_idx" ON "usage_ledger" USING btree ("user_id","media_id","created_at");--> statement-breakpoint
CREATE INDEX "usage_ledger_key_idx" ON "usage_ledger" USING btree ("api_key_id","created_at");