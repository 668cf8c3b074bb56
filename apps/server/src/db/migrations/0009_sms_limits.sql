CREATE TABLE "usage_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_verification_requests" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "phone_verification_requests_address" ON "phone_verification_requests" USING btree ("client_address","created_at");--> statement-breakpoint
CREATE INDEX "phone_verification_requests_created" ON "phone_verification_requests" USING btree ("created_at");