CREATE TABLE "economic_indicators" (
	"id" serial PRIMARY KEY NOT NULL,
	"indicator_code" text NOT NULL,
	"indicator_name" text NOT NULL,
	"interval" text NOT NULL,
	"unit" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"observations" jsonb NOT NULL,
	"gpt_summary" text NOT NULL,
	"analyst" text NOT NULL,
	"last_updated_utc" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "overall_sentiment" (
	"id" serial PRIMARY KEY NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"gpt_summary" text NOT NULL,
	"news_count" integer NOT NULL,
	"tone" text DEFAULT 'neutral' NOT NULL,
	"score" double precision DEFAULT 0 NOT NULL,
	"analyst" text NOT NULL,
	"date_created" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sector_sentiment" (
	"id" serial PRIMARY KEY NOT NULL,
	"sector" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"gpt_summary" text NOT NULL,
	"news" jsonb NOT NULL,
	"tone" text DEFAULT 'neutral' NOT NULL,
	"score" double precision DEFAULT 0 NOT NULL,
	"analyst" text NOT NULL,
	"last_updated_utc" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "economic_indicators_code_slot_unique" ON "economic_indicators" USING btree ("indicator_code","slot");--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_job_slot_unique" ON "job_runs" USING btree ("job","slot");--> statement-breakpoint
CREATE UNIQUE INDEX "overall_sentiment_slot_unique" ON "overall_sentiment" USING btree ("slot");--> statement-breakpoint
CREATE UNIQUE INDEX "sector_sentiment_sector_slot_unique" ON "sector_sentiment" USING btree ("sector","slot");