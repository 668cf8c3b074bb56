import { assertPeriod, assertSameLength } from './validate';

/** Peaks this close (in bins) to a larger one are one node split by the binning (2 bins: 4 % of the range at 50 bins). */
const MIN_SEPARATION_BINS = 2;

export interface VolumeProfileOptions {
  /** Bars of history, today included (default 120 daily bars). */
  lookbackBars?: number;
  /** Equal-width price bins between the lowest low and the highest high of the lookback (default 50). */
  bins?: number;
  /** Most levels answered (default 5). */
  maxLevels?: number;
}

/** The defaults, as a shared constant so that a call without options allocates no `{}`. */
const DEFAULT_OPTIONS: VolumeProfileOptions = Object.freeze({});

/**
 * Volume-profile levels (Stock metrics `volumeProfileLevels`, spec §3; the Option Scanner wants one
 * within 5 % of the price, spec §5): the high-volume price nodes of the last `lookbackBars` bars,
 * today included, in price units.
 * 1. Cut [lowest low, highest high] of the lookback into `bins` equal bins.
 * 2. Spread each bar's volume over the bins its [low, high] range covers, in proportion to the
 *    overlap (volume assumed to trade uniformly across the bar's range; a bar with high = low puts
 *    it all in one bin). Closes are not used; the parameter keeps the OHLCV signature.
 * 3. Nodes are the local maxima of that histogram: bins with more volume than both neighbours (a run
 *    of equal bins, equal within 1e-9 relative to absorb rounding, counts once, at its middle bin).
 *    A node within 2 bins of a larger node already chosen is dropped.
 * 4. Answer the bin-centre prices of the `maxLevels` largest nodes, most volume first.
 * Bars with a non-finite high, low or volume, a negative volume or a low above the high are skipped.
 * Empty without traded volume; one level when every bar trades at one price.
 */
export function volumeProfileLevels(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  options: VolumeProfileOptions = DEFAULT_OPTIONS,
): number[] {
  assertSameLength('volumeProfileLevels', high, low, close, volume);
  const { lookbackBars = 120, bins = 50, maxLevels = 5 } = options;
  assertPeriod('volumeProfileLevels', lookbackBars, 1, 'lookbackBars');
  assertPeriod('volumeProfileLevels', bins, 1, 'bins');
  assertPeriod('volumeProfileLevels', maxLevels, 1, 'maxLevels');
  const n = high.length;
  const start = Math.max(0, n - lookbackBars);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let total = 0;
  let skipped = 0;
  for (let i = start; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    if (!(l <= h && v >= 0 && Number.isFinite(h - l + v))) {
      skipped += 1;
      continue;
    }
    if (l < min) min = l;
    if (h > max) max = h;
    total += v;
  }
  if (!(total > 0)) return [];
  if (max === min) return [min];
  const width = (max - min) / bins;
  const perBin = bins / (max - min);
  // Scans call this for thousands of symbols: reuse two buffers instead of allocating per call
  // (the function stays pure: it is synchronous and the buffers never escape it).
  const histogram = scratch(0, bins);
  // Bins strictly inside a bar's range all get `width · perPrice`: added as a difference array
  // (one add at the first inner bin, one subtract past the last) and summed once at the end, so a
  // bar costs O(1) however many bins it spans.
  const inner = scratch(1, bins + 1);
  // (l − min) · perBin and (h − min) · perBin lie in [0, bins] (give or take rounding) when perBin is
  // finite, so truncating with `| 0` is Math.floor there; otherwise (a subnormal range, absurd bin
  // counts) keep Math.floor.
  if (Number.isFinite(perBin) && bins <= MAX_TRUNCATED_BINS) spreadTruncated(high, low, volume, start, skipped > 0, min, width, perBin, histogram, inner);
  else spreadFloored(high, low, volume, start, skipped > 0, min, width, perBin, histogram, inner);
  let running = 0;
  for (let b = 0; b < bins; b += 1) {
    running += inner[b]!;
    histogram[b] = histogram[b]! + running;
  }
  return topNodes(histogram, maxLevels, min, width);
}

/** Bin counts up to which `(price − min) · perBin` always fits an int32 (with room for rounding). */
const MAX_TRUNCATED_BINS = 2 ** 30;

/**
 * Step 2 (see volumeProfileLevels): each usable bar of `start..` spread over `histogram` (its end
 * bins) and the difference array `inner` (the bins between), in bar order.
 * Bins come from `| 0` (integer arithmetic), and the inner bins' share is multiplied by 0 or 1
 * rather than branched on: which bars span more than two bins is unpredictable, and a mispredicted
 * branch costs more than the two adds of ±0 (which leave the sums unchanged: they are never −0).
 * The sums, their terms and their order are those of `spreadFloored`, so the histogram is the same
 * bit for bit.
 */
function spreadTruncated(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  volume: ArrayLike<number>,
  start: number,
  check: boolean,
  min: number,
  width: number,
  perBin: number,
  histogram: Float64Array,
  inner: Float64Array,
): void {
  const n = high.length;
  const top = histogram.length - 1;
  for (let i = start; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    // The usual all-valid lookback skips the check (pass 1 counted the bars it skipped).
    if (check && !(l <= h && v >= 0 && Number.isFinite(h - l + v))) continue;
    // Only a high at `max` (or rounding next to it) reaches bin `bins`: a rarely taken branch.
    let first = ((l - min) * perBin) | 0;
    let last = ((h - min) * perBin) | 0;
    if (last > top) {
      last = top;
      if (first > top) first = top;
    }
    if (first === last) {
      histogram[first] = histogram[first]! + v;
      continue;
    }
    // Volume per unit of price; the end bins get their overlap, the bins between a full width.
    const perPrice = v / (h - l);
    histogram[first] = histogram[first]! + (min + (first + 1) * width - l) * perPrice;
    histogram[last] = histogram[last]! + (h - (min + last * width)) * perPrice;
    // width · perPrice when the bar spans bins between its ends, else 0 (NaN only for an infinite
    // perPrice without such bins: then there is nothing to add, as in spreadFloored).
    const full = width * perPrice * +(last > first + 1);
    if (full === full) {
      inner[first + 1] = inner[first + 1]! + full;
      inner[last] = inner[last]! - full;
    }
  }
}

/** spreadTruncated with Math.floor and plain branches: the definition, for the inputs `| 0` cannot take. */
function spreadFloored(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  volume: ArrayLike<number>,
  start: number,
  check: boolean,
  min: number,
  width: number,
  perBin: number,
  histogram: Float64Array,
  inner: Float64Array,
): void {
  const n = high.length;
  const bins = histogram.length;
  for (let i = start; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    if (check && !(l <= h && v >= 0 && Number.isFinite(h - l + v))) continue;
    let first = Math.floor((l - min) * perBin);
    let last = Math.floor((h - min) * perBin);
    if (last >= bins) {
      last = bins - 1;
      if (first >= bins) first = bins - 1;
    }
    if (first === last) {
      histogram[first] = histogram[first]! + v;
      continue;
    }
    const perPrice = v / (h - l);
    histogram[first] = histogram[first]! + (min + (first + 1) * width - l) * perPrice;
    histogram[last] = histogram[last]! + (h - (min + last * width)) * perPrice;
    if (last > first + 1) {
      inner[first + 1] = inner[first + 1]! + width * perPrice;
      inner[last] = inner[last]! - width * perPrice;
    }
  }
}

/** For the default 50 bins: the histogram and its difference array (one longer). */
const scratchBuffers: Float64Array[] = [new Float64Array(50), new Float64Array(51)];
/** topNodes' scratch, grown with `bins`: the peaks' bins and volumes, their order, the chosen nodes' bins. */
let peakBins = new Int32Array(50);
let peakVolume = new Float64Array(50);
let peakOrder = new Int32Array(50);
let chosenBins = new Int32Array(50);

/** Buffer `slot`, zeroed, `length` long (grown when a caller asks for more bins). */
function scratch(slot: number, length: number): Float64Array {
  const buffer = scratchBuffers[slot]!;
  if (buffer.length === length) return buffer.fill(0);
  if (buffer.length < length) return (scratchBuffers[slot] = new Float64Array(length));
  return buffer.subarray(0, length).fill(0);
}

/**
 * Bins that one bar covers get the same volume, but not always bit for bit: the end bins' overlaps
 * are computed from the price (h − binStart) rather than as `width`, so a flat run can wobble by
 * rounding and a lone 'peak' appear in it (typically at the top or bottom edge of the range, covered
 * by one wide bar). Volumes within this relative difference are equal.
 */
const EQUAL_VOLUME_RELATIVE = 1e-9;

/**
 * nearlyEqual(a, b) as 0 or 1, `relative` being EQUAL_VOLUME_RELATIVE: |a − b| ≤ E · max(|a|, |b|),
 * tested as |a − b| ≤ E·|a| or ≤ E·|b| (the same: the product rounds monotonically) and without
 * branches (Math.max branches on which is larger, a coin flip between neighbouring bins).
 * `relative` comes in as an argument because a module constant read in a hot loop is re-checked on
 * every read (it could still be uninitialised, as far as the compiler knows).
 */
function nearlyEqual(a: number, b: number, relative: number): number {
  const gap = Math.abs(a - b);
  return +(gap <= relative * Math.abs(a)) | +(gap <= relative * Math.abs(b));
}

/**
 * Bin-centre prices (`min + (bin + 0.5) · width`) of the `count` largest local maxima, largest
 * first. A run of (nearly) equal bins (a plateau) is one peak, at its middle bin, when both bins
 * beside the run are lower. A peak within MIN_SEPARATION_BINS of a larger chosen one is the same
 * node split by binning and is dropped.
 */
function topNodes(histogram: Float64Array, count: number, min: number, width: number): number[] {
  const bins = histogram.length;
  if (peakBins.length < bins) {
    peakBins = new Int32Array(bins);
    peakVolume = new Float64Array(bins);
    peakOrder = new Int32Array(bins);
    chosenBins = new Int32Array(bins);
  }
  return pickNodes(findPeaks(histogram, peakBins, peakVolume), count, min, width, peakBins, peakVolume, peakOrder, chosenBins);
}

/**
 * The peaks into `bins` and `volumes`, in bin order; answers how many. A run starts at `b` and takes
 * the next bins while they are nearly equal to its first one, `value`; it is a peak when `value` is
 * positive and both bins beside the run are lower (the bin after it by `<`: the run stopped there,
 * so it is not nearly equal; the bin before it by `<` and not nearly equal).
 * Only the run test branches (runs longer than a bin are rare); whether a run is a peak is a coin
 * flip on real histograms, so it is computed as 0/1 and every run is written at `peaks`, which
 * advances only past a peak. After a one-bin run the next run's left neighbour is that bin, already
 * found not nearly equal to it.
 */
function findPeaks(histogram: Float64Array, bins: Int32Array, volumes: Float64Array): number {
  const lastBin = histogram.length - 1;
  const relative = EQUAL_VOLUME_RELATIVE;
  let peaks = 0;
  let b = 0;
  let value = histogram[0]!;
  let beforeLower = 1; // the first run has nothing before it
  for (;;) {
    let end = b;
    let after = value;
    let afterLower = 1; // the last run has nothing after it
    if (b < lastBin) {
      after = histogram[b + 1]!;
      if (nearlyEqual(after, value, relative) === 1) {
        end += 1;
        while (end < lastBin && nearlyEqual(histogram[end + 1]!, value, relative) === 1) end += 1;
        if (end < lastBin) after = histogram[end + 1]!;
        else afterLower = 1;
      }
      if (end < lastBin) afterLower = +(after < value);
    }
    bins[peaks] = (b + end) >> 1;
    volumes[peaks] = value;
    peaks += +(value > 0) & beforeLower & afterLower;
    if (end >= lastBin) return peaks;
    // The next run starts at end + 1, with the value `after`; the bin before it is `end`.
    const before = end === b ? value : histogram[end]!;
    beforeLower = +(before < after);
    if (end !== b) beforeLower &= nearlyEqual(before, after, relative) ^ 1;
    b = end + 1;
    value = after;
  }
}

/**
 * The nodes among the first `peaks` peaks: by volume, largest first (the lower bin first on a tie),
 * each kept unless within MIN_SEPARATION_BINS of one already kept, until `count` are kept.
 * The order comes from each peak's rank, the number of peaks that go before it (larger, or as large
 * and lower), counted without branches; there are at most bins / 2 peaks, usually about ten.
 */
function pickNodes(
  peaks: number,
  count: number,
  min: number,
  width: number,
  bins: Int32Array,
  volumes: Float64Array,
  order: Int32Array,
  chosenBins: Int32Array,
): number[] {
  for (let p = 0; p < peaks; p += 1) {
    const volume = volumes[p]!;
    let rank = 0;
    for (let q = 0; q < p; q += 1) rank += +(volumes[q]! >= volume);
    for (let q = p + 1; q < peaks; q += 1) rank += +(volumes[q]! > volume);
    order[rank] = p;
  }
  const separation = MIN_SEPARATION_BINS;
  const levels: number[] = [];
  let chosen = 0;
  for (let r = 0; r < peaks && chosen < count; r += 1) {
    const bin = bins[order[r]!]!;
    let apart = 1;
    for (let c = 0; c < chosen; c += 1) {
      const gap = chosenBins[c]! - bin;
      apart &= +(gap > separation) | +(gap < -separation);
    }
    if (apart === 1) {
      chosenBins[chosen] = bin;
      chosen += 1;
      levels.push(min + (bin + 0.5) * width);
    }
  }
  return levels;
}
