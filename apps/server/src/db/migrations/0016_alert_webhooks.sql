CREATE TABLE "alert_webhooks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text DEFAULT 'webhook' NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"topic" text,
	"alert_types" jsonb NOT NULL,
	"secret_sealed" text NOT NULL,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_answer" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_webhooks_kind" CHECK ("alert_webhooks"."kind" in ('webhook', 'discord', 'ntfy'))
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" DROP CONSTRAINT "alert_deliveries_channel";--> statement-breakpoint
DROP INDEX "alert_deliveries_event_channel_unique";--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "endpoint_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD CONSTRAINT "alert_webhooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_webhooks_user" ON "alert_webhooks" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_event_channel_endpoint_unique" ON "alert_deliveries" USING btree ("event_id","channel","endpoint_id");--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_channel" CHECK ("alert_deliveries"."channel" in ('sms', 'email', 'webhook'));