ALTER TABLE "bot_users" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "bot_users" ADD COLUMN "telegram_language" text;