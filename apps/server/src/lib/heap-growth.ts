/**
 * How far V8 lets the heap grow past what the last full GC kept (issue 24, light to host). Heap
 * snapshots of a first start showed a live heap of ~100 MB while the process held 400–950 MB: the
 * engines' replay and the screens allocate fast (a replay refolds every idea it touches each
 * session), and V8's default growing factor, up to 4× for a fast-allocating process, let garbage
 * fill the difference before the next full GC. A fixed factor keeps the heap near its live set
 * at the cost of more frequent full GCs (mostly concurrent marking). HEAP_GROWING_PERCENT; 0 keeps
 * V8's own heuristics.
 */
import v8 from 'node:v8';

export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
