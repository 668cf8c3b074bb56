CREATE TABLE "custom_scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"universe" text NOT NULL,
	"formula" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_scans_universe" CHECK ("custom_scans"."universe" in ('sp500', 'us', 'tsx', 'crypto', 'favorites'))
);
--> statement-breakpoint
ALTER TABLE "custom_scans" ADD CONSTRAINT "custom_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_scans_user_name_unique" ON "custom_scans" USING btree ("user_id",lower("name"));