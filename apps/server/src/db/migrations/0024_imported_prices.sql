CREATE TABLE "imported_bars" (
	"symbol" text NOT NULL,
	"day" date NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"adj_close" double precision,
	"volume" double precision,
	CONSTRAINT "imported_bars_symbol_day_pk" PRIMARY KEY("symbol","day")
);
--> statement-breakpoint
CREATE TABLE "imported_symbols" (
	"symbol" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"market" text NOT NULL,
	"exchange" text NOT NULL,
	"sector" text,
	"source_file" text NOT NULL,
	"file_sha256" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"imported_by" integer,
	CONSTRAINT "imported_symbols_market" CHECK ("imported_symbols"."market" in ('US', 'TO'))
);
--> statement-breakpoint
ALTER TABLE "imported_bars" ADD CONSTRAINT "imported_bars_symbol_imported_symbols_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."imported_symbols"("symbol") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_symbols" ADD CONSTRAINT "imported_symbols_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;