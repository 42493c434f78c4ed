ALTER TABLE "predictions" ADD COLUMN "speaker_names" jsonb;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "source_prediction_id" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "source_spans" jsonb;