-- Rows of outbox_emails written before messages carried their secrets (providers/mail/types.ts
-- MailMessage.secrets) hold the temporary password of a reset in plain text. Mask it as the code
-- writes it today: one • for each of its characters (maskSecret). Idempotent: a masked body no
-- longer matches the pattern, so running this again changes nothing.
UPDATE "outbox_emails" AS "o"
SET "text_body" = replace("o"."text_body", "m"."secret", repeat('•', length("m"."secret")))
FROM (
  SELECT "id", substring("text_body" from 'Temporary password: ([A-Za-z0-9]+)') AS "secret"
  FROM "outbox_emails"
  WHERE "subject" = 'Your Signalboard temporary password' AND "text_body" ~ 'Temporary password: [A-Za-z0-9]+'
) AS "m"
WHERE "o"."id" = "m"."id";
