/**
 * The trade screens' track record as figures (pure, no React): the measures and columns the panel's
 * tables show (`groupMeasures`, `groupBases`), and every figure of them as one CSV row
 * (`trackRecordFigures`, `TRACK_RECORD_CSV`): the value unformatted (returns and shares as fractions,
 * 0.05 = +5 %), a 95 % interval as its low and high, and whether the screen greys it. A cell the
 * table shows as '—' has no row. The open ideas and voided count under each table are rows too.
 */
import { ruleVersionLabel, type CsvColumn, type IdeaStats, type TrackRecord, type TrackRecordGroup } from '@signalboard/core';
import type { ListEngine } from '../../lib/api/trade-ideas';
import { formatShare } from './idea-format';

/** Below this many closed ideas a percentage is greyed: too few to read (docs/rules/track-record.md §6.3). */
export const FEW_IDEAS = 30;
export const ALL_CLOSED_NOTE = 'includes immature cohorts; biased toward quick exits';

export type MetricKey = 'n' | 'targetHit' | 'winRate' | 'breakEven' | 'mean' | 'median' | 'avgWinLoss' | 'profitFactor' | 'dollar' | 'holding' | 'worst' | 'mae' | 'exits' | 'statuses' | 'excess';

export interface Measure {
  key: MetricKey;
  label: string;
  percent: boolean;
}

const METRICS: Measure[] = [
  { key: 'n', label: 'N closed', percent: false },
  { key: 'targetHit', label: 'Target-hit rate', percent: true },
  { key: 'winRate', label: 'Win rate (95% interval)', percent: true },
  { key: 'breakEven', label: 'Break-even win rate', percent: true },
  { key: 'mean', label: 'Mean return (95% interval)', percent: true },
  { key: 'median', label: 'Median return', percent: true },
  { key: 'avgWinLoss', label: 'Average win / loss', percent: true },
  { key: 'profitFactor', label: 'Profit factor', percent: false },
  { key: 'dollar', label: 'Dollar-weighted return', percent: true },
  { key: 'holding', label: 'Holding time (median / max)', percent: false },
  { key: 'worst', label: 'Worst trade', percent: true },
  { key: 'mae', label: 'Worst mark during a trade', percent: true },
  { key: 'exits', label: 'Exit reasons', percent: true },
  { key: 'statuses', label: 'Statuses', percent: true },
  { key: 'excess', label: 'Ideas’ mean excess over the benchmark', percent: true },
];

const ORIGIN_LABEL = { live: 'Live', replayed: 'Replayed' } as const;
/** A group's title; a rule version run on imported prices says so (ruleVersionLabel). */
export const groupTitle = (group: TrackRecordGroup) => `${group.type} · ${ORIGIN_LABEL[group.origin]} · ${ruleVersionLabel(group.ruleVersion)}`;

/** The target-hit rate: the share of the spec status Successful (for options: the +30% target filled). */
export const targetHitShare = (stats: IdeaStats) => (stats.n > 0 ? (stats.statuses.Successful ?? 0) : null);

/** The table's rows: the dollar-weighted row only when a column has one, the target-hit row only with a break-even. */
export function groupMeasures(group: TrackRecordGroup, targetHitBreakEven?: number): Measure[] {
  const hasDollar = group.allClosed.dollarWeighted !== null || (group.mature?.dollarWeighted ?? null) !== null || (group.baseline?.dollarWeighted ?? null) !== null;
  return METRICS.filter((metric) => (metric.key !== 'dollar' || hasDollar) && (metric.key !== 'targetHit' || targetHitBreakEven !== undefined)).map((metric) =>
    metric.key === 'targetHit' && targetHitBreakEven !== undefined ? { ...metric, label: `Target-hit rate (break-even ${formatShare(targetHitBreakEven)})` } : metric,
  );
}

/** One figure of a cell: `part` names it when a cell holds several ('Average win', 'target'). */
export interface Figure {
  part: string;
  value: number;
  low?: number;
  high?: number;
  unit: 'fraction' | 'count' | 'sessions' | 'ratio';
}

/** The table's columns: mature cohorts (when any), all closed so far, random entry and the benchmark. */
export interface Basis {
  header: string;
  note?: string;
  few: boolean;
  figures: (metric: MetricKey) => Figure[];
}

type Maybe = number | null | undefined;
const one = (part: string, value: Maybe, unit: Figure['unit'] = 'fraction', interval?: { low: number; high: number } | null): Figure[] =>
  value === null || value === undefined || !Number.isFinite(value) ? [] : [{ part, value, unit, ...(interval ? { low: interval.low, high: interval.high } : {}) }];

/** Shares above zero, largest first, named as the screen names them ('time stop'). */
const mix = (shares: Record<string, number>): Figure[] =>
  Object.entries(shares)
    .filter(([, share]) => share > 0)
    .sort((a, b) => b[1] - a[1])
    .flatMap(([name, share]) => one(name.replace(/_/g, ' '), share));

function statsFigures(stats: IdeaStats, metric: MetricKey): Figure[] {
  switch (metric) {
    case 'n':
      return [...one('Closed ideas', stats.n, 'count'), ...one('Entry weeks', stats.entryWeeks, 'count')];
    case 'targetHit':
      return one('', targetHitShare(stats));
    case 'winRate':
      return one('', stats.winRate?.rate, 'fraction', stats.winRate);
    case 'breakEven':
      return one('', stats.breakEvenWinRate);
    case 'mean':
      return one('', stats.meanReturn, 'fraction', stats.meanInterval);
    case 'median':
      return one('', stats.medianReturn);
    case 'avgWinLoss':
      return [...one('Average win', stats.avgWin), ...one('Average loss', stats.avgLoss)];
    case 'profitFactor':
      return one('', stats.profitFactor, 'ratio');
    case 'dollar':
      return stats.dollarWeighted
        ? [...one('On deployed', stats.dollarWeighted.onDeployed), ...one('On committed', stats.dollarWeighted.onCommitted), ...one('XIRR', stats.dollarWeighted.xirr)]
        : [];
    case 'holding':
      return [...one('Median', stats.holdingMedian, 'sessions'), ...one('Max', stats.holdingMax, 'sessions')];
    case 'worst':
      return one('', stats.worstReturn);
    case 'mae':
      return one('', stats.maxAdverseExcursion);
    case 'exits':
      return mix(stats.exitReasons);
    case 'statuses':
      return mix(stats.statuses);
    case 'excess':
      return [];
  }
}

export function groupBases(group: TrackRecordGroup): Basis[] {
  const bases: Basis[] = [];
  const { mature, allClosed, baseline, benchmark } = group;
  if (mature) bases.push({ header: 'Mature cohorts', few: mature.n < FEW_IDEAS, figures: (metric) => statsFigures(mature, metric) });
  bases.push({ header: 'All closed so far', note: ALL_CLOSED_NOTE, few: allClosed.n < FEW_IDEAS, figures: (metric) => statsFigures(allClosed, metric) });
  bases.push({
    header: 'Random entry',
    note: 'the same rules on random symbols entered the same days',
    few: (baseline?.n ?? 0) < FEW_IDEAS,
    figures: (metric) => {
      if (!baseline) return [];
      if (metric === 'n') return one('', baseline.n, 'count');
      if (metric === 'winRate') return one('', baseline.winRate?.rate, 'fraction', baseline.winRate);
      if (metric === 'mean') return one('', baseline.meanReturn);
      if (metric === 'dollar') return one('', baseline.dollarWeighted);
      return [];
    },
  });
  bases.push({
    header: benchmark?.symbol ?? 'SPY',
    note: 'over each idea’s own entry-to-exit window',
    few: allClosed.n < FEW_IDEAS,
    figures: (metric) => (!benchmark ? [] : metric === 'mean' ? one('', benchmark.meanReturn) : metric === 'excess' ? one('', benchmark.meanExcess) : []),
  });
  return bases;
}

/** One row of the CSV: a figure of a group's table (or of the open-ideas line under it). */
export interface TrackRecordFigure extends Figure {
  type: string;
  origin: string;
  ruleVersion: string;
  measure: string;
  basis: string;
  greyed: boolean;
}

/** Every figure the panel shows, group by group, row by row, column by column, as the screen orders them. */
export function trackRecordFigures(record: TrackRecord, targetHitBreakEven?: number): TrackRecordFigure[] {
  const rows: TrackRecordFigure[] = [];
  for (const group of record.groups) {
    const of = { type: group.type, origin: ORIGIN_LABEL[group.origin], ruleVersion: group.ruleVersion };
    const bases = groupBases(group);
    for (const metric of groupMeasures(group, targetHitBreakEven)) {
      for (const basis of bases) {
        for (const figure of basis.figures(metric.key)) rows.push({ ...of, measure: metric.label, basis: basis.header, greyed: metric.percent && basis.few, ...figure });
      }
    }
    const open = { ...of, measure: 'Open ideas', basis: '', greyed: false };
    rows.push({ ...open, ...one('Count', group.open.count, 'count')[0]! });
    if (group.open.count > 0) {
      for (const figure of [...one('Average mark', group.open.avgMark), ...one('Oldest', group.open.oldestSessions, 'sessions')]) rows.push({ ...open, ...figure });
    }
    if (group.voided > 0) rows.push({ ...of, measure: 'Voided (not counted)', basis: '', greyed: false, part: '', value: group.voided, unit: 'count' });
  }
  return rows;
}

export const TRACK_RECORD_CSV: CsvColumn<TrackRecordFigure>[] = [
  { header: 'Type', value: (row) => row.type },
  { header: 'Origin', value: (row) => row.origin },
  { header: 'Rule version', value: (row) => row.ruleVersion },
  { header: 'Measure', value: (row) => row.measure },
  { header: 'Part', value: (row) => row.part },
  { header: 'Column', value: (row) => row.basis },
  { header: 'Value', value: (row) => row.value },
  { header: 'Low (95%)', value: (row) => row.low },
  { header: 'High (95%)', value: (row) => row.high },
  { header: 'Unit', value: (row) => row.unit },
  { header: `Greyed (fewer than ${FEW_IDEAS} closed)`, value: (row) => row.greyed },
];

/** The file's name before its date: the screen's list export name ('short-term-trades') and '-track-record'. */
export const TRACK_RECORD_FILE: Record<ListEngine, string> = {
  drop: 'drop-items-track-record',
  swing: 'short-term-trades-track-record',
  layered: 'layered-plans-track-record',
  options: 'option-trades-track-record',
};
