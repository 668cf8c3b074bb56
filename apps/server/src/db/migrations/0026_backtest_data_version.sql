ALTER TABLE "custom_scan_backtests" ADD COLUMN "data_version" text;--> statement-breakpoint
ALTER TABLE "custom_scan_backtests" ADD COLUMN "data_rerun" boolean DEFAULT false NOT NULL;