CREATE TABLE "alert_channel_status" (
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"opted_out_at" timestamp with time zone,
	"problem" text,
	"problem_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_channel_status_user_id_channel_pk" PRIMARY KEY("user_id","channel"),
	CONSTRAINT "alert_channel_status_channel" CHECK ("alert_channel_status"."channel" in ('sms', 'email'))
);
--> statement-breakpoint
CREATE TABLE "alert_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"provider_id" text,
	"possibly_duplicate" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_deliveries_channel" CHECK ("alert_deliveries"."channel" in ('sms', 'email')),
	CONSTRAINT "alert_deliveries_status" CHECK ("alert_deliveries"."status" in ('queued', 'sending', 'sent', 'delivered', 'failed', 'expired', 'suppressed'))
);
--> statement-breakpoint
CREATE TABLE "alert_delivery_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"alert_type" text NOT NULL,
	"symbol" text NOT NULL,
	"trigger_key" text NOT NULL,
	"rule" jsonb NOT NULL,
	"data" jsonb NOT NULL,
	"sms_text" text NOT NULL,
	"email_subject" text NOT NULL,
	"email_text" text NOT NULL,
	"fired_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_symbol_state" (
	"user_id" integer NOT NULL,
	"alert_type" text NOT NULL,
	"symbol" text NOT NULL,
	"rule_stamp" timestamp with time zone NOT NULL,
	"armed" boolean NOT NULL,
	"trigger_price" double precision,
	"last_fired_at" timestamp with time zone,
	"last_fired_session" date,
	"last_price" double precision,
	"last_evaluated_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "alert_symbol_state_user_id_alert_type_symbol_pk" PRIMARY KEY("user_id","alert_type","symbol")
);
--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "auto_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "idea_events" ADD COLUMN "tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_channel_status" ADD CONSTRAINT "alert_channel_status_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_event_id_alert_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alert_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_delivery_steps" ADD CONSTRAINT "alert_delivery_steps_delivery_id_alert_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."alert_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_symbol_state" ADD CONSTRAINT "alert_symbol_state_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_event_channel_unique" ON "alert_deliveries" USING btree ("event_id","channel");--> statement-breakpoint
CREATE INDEX "alert_deliveries_due" ON "alert_deliveries" USING btree ("next_attempt_at") WHERE "alert_deliveries"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "alert_deliveries_provider" ON "alert_deliveries" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "alert_deliveries_user_created" ON "alert_deliveries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "alert_delivery_steps_delivery" ON "alert_delivery_steps" USING btree ("delivery_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_events_trigger_unique" ON "alert_events" USING btree ("user_id","alert_type","symbol","trigger_key");--> statement-breakpoint
CREATE INDEX "alert_events_user_fired" ON "alert_events" USING btree ("user_id","fired_at");--> statement-breakpoint
CREATE INDEX "alert_symbol_state_symbol" ON "alert_symbol_state" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "idea_events_tx" ON "idea_events" USING btree ("tx_id");