CREATE TABLE "outbox_sms" (
	"id" serial PRIMARY KEY NOT NULL,
	"to_number" text NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"file_path" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "outbox_sms_kind" CHECK ("outbox_sms"."kind" in ('verification', 'message'))
);
--> statement-breakpoint
CREATE TABLE "phone_verification_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"phone_number" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_verification_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone_number" text NOT NULL,
	"code_salt" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"check_count" integer DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_phones" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"phone_number" text NOT NULL,
	"sms_enabled" boolean DEFAULT true NOT NULL,
	"verified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_verification_requests" ADD CONSTRAINT "phone_verification_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_phones" ADD CONSTRAINT "user_phones_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_sms_to_created" ON "outbox_sms" USING btree ("to_number","created_at");--> statement-breakpoint
CREATE INDEX "phone_verification_requests_user" ON "phone_verification_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "phone_verification_requests_number" ON "phone_verification_requests" USING btree ("phone_number","created_at");--> statement-breakpoint
CREATE INDEX "sms_verification_codes_number" ON "sms_verification_codes" USING btree ("phone_number","created_at");