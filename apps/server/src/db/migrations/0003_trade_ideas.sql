CREATE TABLE "idea_events" (
	"sequence" bigserial PRIMARY KEY NOT NULL,
	"idea_id" text NOT NULL,
	"engine" text NOT NULL,
	"market" text NOT NULL,
	"symbol" text NOT NULL,
	"type" text NOT NULL,
	"level" text DEFAULT '' NOT NULL,
	"bar_date" date NOT NULL,
	"price" double precision,
	"data" jsonb NOT NULL,
	"rule_version" text NOT NULL,
	"param_hash" text NOT NULL,
	"origin" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ideas" (
	"id" text PRIMARY KEY NOT NULL,
	"engine" text NOT NULL,
	"market" text NOT NULL,
	"symbol" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"origin" text NOT NULL,
	"rule_version" text NOT NULL,
	"is_active" boolean NOT NULL,
	"is_open" boolean NOT NULL,
	"is_voided" boolean DEFAULT false NOT NULL,
	"types" text[] DEFAULT '{}'::text[] NOT NULL,
	"cooldown_key" text NOT NULL,
	"closed_bar_date" date,
	"signal_date" date NOT NULL,
	"last_sequence" bigint NOT NULL,
	"mark_price" double precision,
	"mark_at" timestamp with time zone,
	"row" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_engine_versions" (
	"engine" text NOT NULL,
	"rule_version" text NOT NULL,
	"param_hash" text NOT NULL,
	"replay_state" text NOT NULL,
	"sessions_done" integer DEFAULT 0 NOT NULL,
	"sessions_total" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"error" text,
	"last_session" date,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "trade_engine_versions_engine_rule_version_pk" PRIMARY KEY("engine","rule_version")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "idea_events_idea_type_level_bar_unique" ON "idea_events" USING btree ("idea_id","type","level","bar_date");--> statement-breakpoint
CREATE INDEX "idea_events_engine_idea" ON "idea_events" USING btree ("engine","idea_id");--> statement-breakpoint
CREATE INDEX "ideas_engine_created" ON "ideas" USING btree ("engine","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ideas_engine_open" ON "ideas" USING btree ("engine","rule_version") WHERE "ideas"."is_open";--> statement-breakpoint
-- The event log is append-only (strategies.md §0.4): UPDATE and DELETE raise an error.
CREATE FUNCTION idea_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'idea_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER idea_events_no_update_or_delete BEFORE UPDATE OR DELETE ON "idea_events"
  FOR EACH ROW EXECUTE FUNCTION idea_events_append_only();
