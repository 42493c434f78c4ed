CREATE TABLE "bot_users" (
	"telegram_id" text PRIMARY KEY NOT NULL,
	"language" text,
	"output_format" text DEFAULT 'messages' NOT NULL,
	"post_process" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"speakers" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
