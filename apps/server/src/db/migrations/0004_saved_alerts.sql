CREATE TABLE "user_option_alerts" (
	"user_id" integer NOT NULL,
	"idea_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_option_alerts_user_id_idea_id_pk" PRIMARY KEY("user_id","idea_id")
);
--> statement-breakpoint
CREATE TABLE "user_stock_scanner_alerts" (
	"user_id" integer NOT NULL,
	"idea_id" text NOT NULL,
	"trade_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_stock_scanner_alerts_user_id_idea_id_pk" PRIMARY KEY("user_id","idea_id"),
	CONSTRAINT "user_stock_scanner_alerts_trade_type" CHECK ("user_stock_scanner_alerts"."trade_type" in ('S', 'L', 'O'))
);
--> statement-breakpoint
ALTER TABLE "user_option_alerts" ADD CONSTRAINT "user_option_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_stock_scanner_alerts" ADD CONSTRAINT "user_stock_scanner_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_option_alerts_idea" ON "user_option_alerts" USING btree ("idea_id");--> statement-breakpoint
CREATE INDEX "user_stock_scanner_alerts_idea" ON "user_stock_scanner_alerts" USING btree ("idea_id");