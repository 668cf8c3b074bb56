CREATE TABLE "custom_scan_intraday_entries" (
	"scan_id" integer NOT NULL,
	"session" date NOT NULL,
	"symbol" text NOT NULL,
	"scan_version" integer NOT NULL,
	"price" double precision NOT NULL,
	"fired_at" timestamp with time zone NOT NULL,
	CONSTRAINT "custom_scan_intraday_entries_scan_id_session_symbol_pk" PRIMARY KEY("scan_id","session","symbol")
);
--> statement-breakpoint
ALTER TABLE "custom_scan_intraday_entries" ADD CONSTRAINT "custom_scan_intraday_entries_scan_id_custom_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."custom_scans"("id") ON DELETE cascade ON UPDATE no action;