CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_reason" text,
	"restricted" boolean DEFAULT false NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
-- A session ended, lifted from its first-login restriction, or deleted is announced on the channel
-- signalboard_session_changed with its id, whichever process changed it (an API replica, the admin
-- CLI, plain SQL): every server drops its cached copy at once, so an ended session's token is refused
-- everywhere within the notification's delay. last_seen_at writes are not announced.
CREATE OR REPLACE FUNCTION signalboard_notify_session_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('signalboard_session_changed', OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_changed
  AFTER UPDATE OF ended_at, restricted, user_id OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION signalboard_notify_session_changed();
