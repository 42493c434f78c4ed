CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"prediction_id" text NOT NULL,
	"event" text NOT NULL,
	"webhook_id" text NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"prediction_id" text NOT NULL,
	"event" text NOT NULL,
	"webhook_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_attempt_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_prediction_id_event_pk" PRIMARY KEY("prediction_id","event")
);
--> statement-breakpoint
CREATE TABLE "webhook_secrets" (
	"user_id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_attempts_prediction_idx" ON "webhook_attempts" USING btree ("prediction_id","created_at");