import { Badge, Box, Text, type MantineColor } from '@mantine/core';
import { formatCryptoRow, type CryptoSignal, type CryptoTrade } from '@signalboard/core';
import type { ReactNode } from 'react';
import { IdeaStampBadges, NewBadge } from '../../components/trade-ideas/idea-badges';
import { IdeaCard } from '../../components/trade-ideas/idea-card';
import { TONE } from '../../theme';

/** Spec §2 "Crypto screen": the defaults a field shows without a value. */
export const NO_CLEAR_TREND = 'No Clear Trend';
export const NO_NEWS_SUMMARY = 'No recent news summary available.';
export const NEAR_LEVEL = 'Near Level';

/** Buy green, Sell red, Hold grey (spec §2); the word is always written, so colour is never alone. */
export const SIGNAL_COLOR: Record<CryptoSignal, MantineColor> = { Buy: TONE.gain, Sell: TONE.loss, Hold: TONE.neutral };

/** News sentiment: green positive, red negative (spec §2); Neutral and Insufficient in the plain text colour. */
export function sentimentColor(sentiment: CryptoTrade['NewsSentiment']): MantineColor | undefined {
  return sentiment === 'Positive' ? TONE.gain : sentiment === 'Negative' ? TONE.loss : undefined;
}

/** Up and down trends in the gain and loss colours, with the word. */
export function trendColor(trend: CryptoTrade['Trend']): MantineColor | undefined {
  return trend.endsWith('Uptrend') ? TONE.gain : trend.endsWith('Downtrend') ? TONE.loss : undefined;
}

/**
 * Why a field shows its default, from the row's `Unavailable` list (warm-up, close-only candles, no
 * volume, no swing point). A drop % without its own entry takes its high's reason.
 */
export function whyUnavailable(row: CryptoTrade, field: string): string | null {
  const own = row.Unavailable.find((item) => item.field === field);
  if (own) return own.reason;
  if (field === 'DropPercentage') return whyUnavailable(row, 'OneMonthHigh');
  if (field === 'DropPercentage60') return whyUnavailable(row, 'SixMonthHigh');
  return null;
}

/**
 * One labelled figure of a coin's card (the IdeaField layout: label, then value) and, when the value
 * is the field's default, a dimmed line saying why ('Why: needs 180 candles, has 120').
 */
function CryptoField({ label, children, color, why }: { label: string; children: ReactNode; color?: MantineColor; why?: string | null }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="div" size="sm" fw={600} c={color} style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
      {why ? (
        <Text size="xs" c="dimmed">
          Why: {why}
        </Text>
      ) : null}
    </Box>
  );
}

export function SignalBadge({ signal }: { signal: CryptoSignal }) {
  return (
    <Badge variant="light" color={SIGNAL_COLOR[signal]} radius="sm">
      {signal}
    </Badge>
  );
}

const percent = (text: string) => (text === 'N/A' ? text : `${text}%`);

/**
 * A coin's card (spec §2 "Crypto screen"): symbol with the NEW and Near Level badges, current price,
 * 1M and 6M highs, RSI, ATR, drop % over 1M and 6M, volume level, swing level, trend, news sentiment,
 * the three signals and the news summary, then the created and updated dates. Numbers come formatted
 * from core's formatCryptoRow (spec §9), defaults with their reason.
 */
export function CryptoCard({ row, onDetails }: { row: CryptoTrade; onDetails: () => void }) {
  const text = formatCryptoRow(row);
  const why = (field: string) => whyUnavailable(row, field);
  const nearLevel = row.IsSwingLevel === '1';
  return (
    <IdeaCard
      symbol={row.Symbol}
      createdAt={row.DateCreated}
      updatedAt={row.DateUpdated}
      onDetails={onDetails}
      badges={
        <>
          {row.IsNew ? <NewBadge /> : null}
          {nearLevel ? (
            <Badge variant="light" color={TONE.middling} radius="sm" title="The close is within half an ATR of the swing level">
              {NEAR_LEVEL}
            </Badge>
          ) : null}
          <IdeaStampBadges origin={row.Origin} entryPending={false} />
        </>
      }
      footer={
        <Box>
          <Text size="xs" c="dimmed">
            News summary
          </Text>
          <Text size="sm">{row.News.trim() || NO_NEWS_SUMMARY}</Text>
          {why('News') ? (
            <Text size="xs" c="dimmed">
              Why: {why('News')}
            </Text>
          ) : null}
        </Box>
      }
    >
      <CryptoField label="Short-term signal" why={row.ShortTermSignal === 'Hold' ? why('ShortTermSignal') : null}>
        <SignalBadge signal={row.ShortTermSignal} />
      </CryptoField>
      <CryptoField label="Medium-term signal" why={row.MediumTermSignal === 'Hold' ? why('MediumTermSignal') : null}>
        <SignalBadge signal={row.MediumTermSignal} />
      </CryptoField>
      <CryptoField label="Long-term signal" why={row.LongTermSignal === 'Hold' ? why('LongTermSignal') : null}>
        <SignalBadge signal={row.LongTermSignal} />
      </CryptoField>
      <CryptoField label="Trend" color={trendColor(row.Trend)} why={row.Trend === NO_CLEAR_TREND ? why('Trend') : null}>
        {row.Trend}
      </CryptoField>
      <CryptoField label="Current price">{text.CurrentPrice}</CryptoField>
      <CryptoField label="1M high" why={row.OneMonthHigh === null ? why('OneMonthHigh') : null}>
        {text.OneMonthHigh}
      </CryptoField>
      <CryptoField label="6M high" why={row.SixMonthHigh === null ? why('SixMonthHigh') : null}>
        {text.SixMonthHigh}
      </CryptoField>
      <CryptoField label="RSI (14)" why={row.RSIValue === null ? why('RSIValue') : null}>
        {text.RSIValue}
      </CryptoField>
      <CryptoField label="Drop % (1M)" why={row.DropPercentage === null ? why('DropPercentage') : null}>
        {percent(text.DropPercentage)}
      </CryptoField>
      <CryptoField label="Drop % (6M)" why={row.DropPercentage60 === null ? why('DropPercentage60') : null}>
        {percent(text.DropPercentage60)}
      </CryptoField>
      <CryptoField label="ATR (14 days)" why={row.ATR_14_Day === null ? why('ATR_14_Day') : null}>
        {text.ATR_14_Day}
      </CryptoField>
      <CryptoField label="Volume level" why={row.VolumeLevel === null ? why('VolumeLevel') : null}>
        {text.VolumeLevel}
        {row.VolumeLabel ? ` (${row.VolumeLabel})` : ''}
      </CryptoField>
      <CryptoField label={row.SwingKind === 'low' ? 'Swing level (low)' : row.SwingKind === 'high' ? 'Swing level (high)' : 'Swing level'} why={row.SwingLevel === null ? why('SwingLevel') : null}>
        {text.SwingLevel}
      </CryptoField>
      <CryptoField label="News sentiment" color={sentimentColor(row.NewsSentiment)} why={why('NewsSentiment')}>
        {row.NewsSentiment}
      </CryptoField>
    </IdeaCard>
  );
}
