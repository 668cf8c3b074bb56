ALTER TABLE "job_runs" ADD COLUMN "holder" text;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "holder_job" text;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "holder_attempt" integer;