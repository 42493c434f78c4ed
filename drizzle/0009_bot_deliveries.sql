CREATE TABLE "bot_deliveries" (
	"prediction_id" text PRIMARY KEY NOT NULL,
	"chat_id" bigint NOT NULL,
	"thread_id" integer,
	"user_id" bigint NOT NULL,
	"message_id" integer NOT NULL,
	"status_message_id" integer NOT NULL,
	"api_key_id" text NOT NULL,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bot_groups" (
	"chat_id" bigint PRIMARY KEY NOT NULL,
	"transcribe_all" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bot_deliveries_pending_idx" ON "bot_deliveries" USING btree ("delivered_at","user_id");