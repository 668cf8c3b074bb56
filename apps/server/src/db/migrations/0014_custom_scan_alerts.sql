CREATE TABLE "custom_scan_members" (
	"scan_id" integer NOT NULL,
	"session" date NOT NULL,
	"scan_version" integer NOT NULL,
	"symbols" text[] NOT NULL,
	"entered" text[] NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "custom_scan_members_scan_id_session_pk" PRIMARY KEY("scan_id","session")
);
--> statement-breakpoint
ALTER TABLE "custom_scan_members" ADD CONSTRAINT "custom_scan_members_scan_id_custom_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."custom_scans"("id") ON DELETE cascade ON UPDATE no action;