CREATE TABLE "alert_channel_deliveries" (
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"last_delivered_at" timestamp with time zone NOT NULL,
	"provider_answer" text NOT NULL,
	CONSTRAINT "alert_channel_deliveries_user_id_channel_pk" PRIMARY KEY("user_id","channel"),
	CONSTRAINT "alert_channel_deliveries_channel" CHECK ("alert_channel_deliveries"."channel" in ('sms', 'email'))
);
--> statement-breakpoint
CREATE TABLE "alert_delivery_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"sms_quiet_enabled" boolean NOT NULL,
	"sms_quiet_start" text NOT NULL,
	"sms_quiet_end" text NOT NULL,
	"email_quiet_enabled" boolean NOT NULL,
	"email_quiet_start" text NOT NULL,
	"email_quiet_end" text NOT NULL,
	"paused" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"user_id" integer NOT NULL,
	"alert_type" text NOT NULL,
	"symbols" jsonb NOT NULL,
	"threshold_value" double precision,
	"targets" jsonb NOT NULL,
	"enable_sms" boolean NOT NULL,
	"enable_email" boolean NOT NULL,
	"is_active" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_rules_user_id_alert_type_pk" PRIMARY KEY("user_id","alert_type")
);
--> statement-breakpoint
ALTER TABLE "alert_channel_deliveries" ADD CONSTRAINT "alert_channel_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_delivery_settings" ADD CONSTRAINT "alert_delivery_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;