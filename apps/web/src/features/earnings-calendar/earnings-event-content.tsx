import { EARNINGS_HOUR_LABELS, epsLine, surpriseLine, type EarningsCalendarEvent } from '@signalboard/core';
import { EarningsHourIcon } from './earnings-hour-icon';

const surpriseTone = (value: EarningsCalendarEvent['surprisePercent']) =>
  value === 'N/A' || value === 0 ? 'sb-earnings-flat' : value > 0 ? 'sb-earnings-up' : 'sb-earnings-down';

/**
 * One earnings release inside the calendar (spec §2): the ticker with its time-of-day icon, then
 * 'EPS: actual vs estimate (difference)' and 'Surprise: N%'. The list views have room for the
 * title's wording, the time in words and the listing; the month grid shows the essentials.
 */
export function EarningsEventContent({ event, compact }: { event: EarningsCalendarEvent; compact: boolean }) {
  const where = [event.exchange, event.country].filter((part) => part !== 'Unknown').join(' · ');
  return (
    <div className={compact ? 'sb-earnings-event sb-earnings-event-compact' : 'sb-earnings-event'}>
      <div className="sb-earnings-event-head">
        <EarningsHourIcon hour={event.hour} size={compact ? 14 : 16} />
        <span className="sb-earnings-event-title">
          <strong>{event.symbol}</strong>
          {compact ? null : ' Earnings Release'}
        </span>
        {compact ? null : (
          <span className="sb-earnings-event-meta">
            {/* The icon already names the time for assistive technology. */}
            <span aria-hidden>{EARNINGS_HOUR_LABELS[event.hour]}</span>
            {where ? ` · ${where}` : ''}
          </span>
        )}
      </div>
      <div className="sb-earnings-event-numbers">
        <span>{epsLine(event)}</span>
        <span className={surpriseTone(event.surprisePercent)}>{surpriseLine(event)}</span>
      </div>
    </div>
  );
}
