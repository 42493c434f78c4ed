CREATE TABLE "engine_timings" (
	"engine" text PRIMARY KEY NOT NULL,
	"weight" double precision DEFAULT 0 NOT NULL,
	"sum_x" double precision DEFAULT 0 NOT NULL,
	"sum_y" double precision DEFAULT 0 NOT NULL,
	"sum_xx" double precision DEFAULT 0 NOT NULL,
	"sum_xy" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fair_share_clock" (
	"id" integer PRIMARY KEY NOT NULL,
	"virtual_time" double precision DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fair_share_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"last_finish" double precision DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "queue_tag" double precision;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "queue_priority" integer;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "queue_cost" real;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "queue_logged_wait" real;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "queue_estimated_start_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "predictions_unfinished_idx" ON "predictions" USING btree ("queue_priority","created_at") WHERE status = 'processing';--> statement-breakpoint
-- The fair queue's accounts need no crash safety: UNLOGGED tables skip the write-ahead log, so the
-- create's upsert commits without waiting for a WAL flush (as rate_limits, 0011). After a crash of the
-- database they are emptied: the clock then restarts at the earliest waiting job's tag (read from
-- predictions.queue_priority) and every key starts afresh at it (docs/queue.md, "Limits").
ALTER TABLE "fair_share_keys" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "fair_share_clock" SET UNLOGGED;
