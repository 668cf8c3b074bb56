CREATE TABLE "custom_scan_backtests" (
	"scan_id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_scan_backtests_status" CHECK ("custom_scan_backtests"."status" in ('queued', 'running', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "custom_scan_backtests" ADD CONSTRAINT "custom_scan_backtests_scan_id_custom_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."custom_scans"("id") ON DELETE cascade ON UPDATE no action;