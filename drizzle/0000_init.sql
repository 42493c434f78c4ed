CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"owner" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "predictions" (
	"id" text PRIMARY KEY NOT NULL,
	"api_key_id" text NOT NULL,
	"namespace" text DEFAULT 'api' NOT NULL,
	"status" text NOT NULL,
	"input" jsonb NOT NULL,
	"params" jsonb NOT NULL,
	"source" jsonb NOT NULL,
	"output_transformers" text,
	"legacy_format" text,
	"output" jsonb,
	"transcript" jsonb,
	"results" jsonb,
	"error" text,
	"error_code" text,
	"logs" text DEFAULT '' NOT NULL,
	"audio_seconds" real,
	"predict_time" real,
	"webhook" text,
	"webhook_events_filter" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_owner_idx" ON "api_keys" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "predictions_key_created_idx" ON "predictions" USING btree ("api_key_id","created_at");