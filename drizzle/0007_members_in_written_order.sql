ALTER TABLE "predictions" ALTER COLUMN "input" SET DATA TYPE json USING "input"::json;--> statement-breakpoint
ALTER TABLE "predictions" ALTER COLUMN "output" SET DATA TYPE json USING "output"::json;--> statement-breakpoint
ALTER TABLE "predictions" ALTER COLUMN "results" SET DATA TYPE json USING "results"::json;