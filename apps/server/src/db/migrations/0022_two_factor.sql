CREATE TABLE "installation_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"two_factor_required" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "installation_settings_one_row" CHECK ("installation_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "login_challenges" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"first_login" boolean NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "two_factor_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_two_factor" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "needs_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "login_challenges" ADD CONSTRAINT "login_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor_recovery_codes" ADD CONSTRAINT "two_factor_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_two_factor" ADD CONSTRAINT "user_two_factor_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_challenges_user_idx" ON "login_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "two_factor_recovery_codes_user_hash_unique" ON "two_factor_recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
-- A session lifted from the two-factor setup restriction is announced like one lifted from the
-- first-login one (0019_sessions): every server drops its cached copy at once.
DROP TRIGGER "sessions_notify_changed" ON "sessions";--> statement-breakpoint
CREATE TRIGGER sessions_notify_changed
  AFTER UPDATE OF ended_at, restricted, needs_two_factor, user_id OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION signalboard_notify_session_changed();
