CREATE TABLE "telegram_link_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_webhooks" DROP CONSTRAINT "alert_webhooks_kind";--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD COLUMN "lookup_hash" text;--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD COLUMN "also_quiet_hours" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ADD CONSTRAINT "telegram_link_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telegram_link_codes_user" ON "telegram_link_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_webhooks_user_lookup" ON "alert_webhooks" USING btree ("user_id","lookup_hash");--> statement-breakpoint
CREATE INDEX "alert_webhooks_lookup" ON "alert_webhooks" USING btree ("lookup_hash");--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD CONSTRAINT "alert_webhooks_kind" CHECK ("alert_webhooks"."kind" in ('webhook', 'discord', 'ntfy', 'telegram', 'push'));