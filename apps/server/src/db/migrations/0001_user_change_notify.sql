-- Every change to an account (deactivation, password reset, deletion) is announced on the
-- channel signalboard_user_changed with the user id, whichever process made it (server, admin
-- CLI, plain SQL). Servers listen and drop their cached copy of that user at once.
CREATE OR REPLACE FUNCTION signalboard_notify_user_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('signalboard_user_changed', OLD.id::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_notify_changed
  AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION signalboard_notify_user_changed();
