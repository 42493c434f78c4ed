CREATE TABLE "portal_login_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "portal_sessions" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "portal_login_links_expires_idx" ON "portal_login_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "portal_sessions_owner_idx" ON "portal_sessions" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "portal_sessions_expires_idx" ON "portal_sessions" USING btree ("expires_at");