ALTER TABLE "imported_symbols" ADD COLUMN "bars_digest" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The digest of the bars imported before this column (the same expression as imported-prices.repo.ts BARS_DIGEST).
UPDATE "imported_symbols" s SET "bars_digest" = coalesce((SELECT md5(string_agg(concat_ws(',', b.day, b.open, b.high, b.low, b.close, b.volume), ';' ORDER BY b.day)) FROM "imported_bars" b WHERE b.symbol = s.symbol), '');
