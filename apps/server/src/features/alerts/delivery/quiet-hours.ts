/** When quiet hours end (docs/rules/alerts.md §4): shared by the SMS and e-mail lane and the Telegram and push endpoints. */
import { inQuietHours, localTimeIn, type QuietHours } from '@signalboard/core';

/** The first minute at or after `now` when `hours` are over in `timeZone`. */
export function quietHoursEnd(hours: QuietHours, timeZone: string, now: Date): Date {
  const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const minutes = (minutesOf(hours.end) - minutesOf(localTimeIn(now, timeZone)) + 1440) % 1440 || 1440;
  let end = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + minutes * 60_000);
  // A daylight-saving change inside the quiet hours moves the end by an hour.
  for (let i = 0; i < 3 && inQuietHours(hours, localTimeIn(end, timeZone)); i += 1) end = new Date(end.getTime() + 3_600_000);
  return end;
}
