import { describe, expect, it } from 'vitest';
import { editingReducer, editingView, initialEditingState, savePlan, type EditingAction, type EditingState, type FavoriteRow } from './favorites-editing';

const AAPL = { symbol: 'AAPL', description: 'Apple Inc.' };
const MSFT = { symbol: 'MSFT', description: 'Microsoft Corporation' };
const RY = { symbol: 'RY.TO', description: 'Royal Bank of Canada' };
const SAVED: FavoriteRow[] = [AAPL, MSFT];

const run = (...actions: EditingAction[]): EditingState => actions.reduce(editingReducer, initialEditingState);
const toggle = (stock: FavoriteRow): EditingAction => ({ type: 'toggle', stock, saved: SAVED });
const remove = (symbol: string): EditingAction => ({ type: 'remove', symbol, saved: SAVED });

describe('favourites editing (spec §4)', () => {
  it('starts unchanged, showing the saved list', () => {
    expect(editingView(initialEditingState, SAVED)).toEqual({ favorites: SAVED, pendingDeletions: [], changed: false, canadian: false });
    expect(savePlan(initialEditingState)).toEqual({ deleteSymbols: null, upsertStocks: null });
  });

  it('a match that is not a favourite is added at the end, and the list is changed', () => {
    const view = editingView(run(toggle(RY)), SAVED);
    expect(view.favorites).toEqual([AAPL, MSFT, RY]);
    expect(view.pendingDeletions).toEqual([]);
    expect(view.changed).toBe(true);
  });

  it('a match that is a favourite is removed and queued for deletion', () => {
    const view = editingView(run(toggle({ symbol: 'MSFT', description: 'Microsoft Corp' })), SAVED);
    expect(view.favorites).toEqual([AAPL]);
    expect(view.pendingDeletions).toEqual(['MSFT']);
    expect(view.changed).toBe(true);
  });

  it('compares symbols trimmed and case-blind, and stores them trimmed and upper-cased', () => {
    const view = editingView(run(toggle({ symbol: ' aapl ', description: 'Apple' }), toggle({ symbol: ' shop.to', description: ' Shopify Inc. ' })), SAVED);
    expect(view.favorites).toEqual([MSFT, { symbol: 'SHOP.TO', description: 'Shopify Inc.' }]);
    expect(view.pendingDeletions).toEqual(['AAPL']);
  });

  it('× removes the row and queues its symbol once', () => {
    const view = editingView(run(remove('AAPL'), remove('AAPL')), SAVED);
    expect(view.favorites).toEqual([MSFT]);
    expect(view.pendingDeletions).toEqual(['AAPL']);
    expect(view.changed).toBe(true);
  });

  it('adding a removed symbol back takes it off the deletion list', () => {
    const state = run(remove('AAPL'), toggle(AAPL));
    expect(editingView(state, SAVED).favorites).toEqual([MSFT, AAPL]);
    expect(editingView(state, SAVED).pendingDeletions).toEqual([]);
    expect(savePlan(state)).toEqual({ deleteSymbols: null, upsertStocks: [MSFT, AAPL] });
  });

  it('edits build on the draft, not on the saved list, once changed', () => {
    const state = run(toggle(RY), remove('RY.TO'), remove('MSFT'));
    // The saved list given later is ignored while a draft exists.
    expect(editingView(state, [AAPL, MSFT, RY]).favorites).toEqual([AAPL]);
    expect(editingView(state, SAVED).pendingDeletions).toEqual(['RY.TO', 'MSFT']);
  });

  it('Save sends the delete when something was removed and the batch when favourites remain, independently', () => {
    expect(savePlan(run(toggle(RY)))).toEqual({ deleteSymbols: null, upsertStocks: [AAPL, MSFT, RY] });
    expect(savePlan(run(remove('MSFT'), toggle(RY)))).toEqual({ deleteSymbols: ['MSFT'], upsertStocks: [AAPL, RY] });
    // Everything removed: only the delete.
    expect(savePlan(run(remove('AAPL'), remove('MSFT')))).toEqual({ deleteSymbols: ['AAPL', 'MSFT'], upsertStocks: null });
  });

  it('discard (Cancel, or after a save) returns to unchanged and the saved list, keeping the Canadian flag', () => {
    const state = run({ type: 'setCanadian', canadian: true }, remove('AAPL'), toggle(RY), { type: 'discard' });
    expect(editingView(state, SAVED)).toEqual({ favorites: SAVED, pendingDeletions: [], changed: false, canadian: true });
    expect(savePlan(state)).toEqual({ deleteSymbols: null, upsertStocks: null });
  });

  it('toggling the Canadian flag is not a change of the favourites', () => {
    const state = run({ type: 'setCanadian', canadian: true });
    expect(editingView(state, SAVED).changed).toBe(false);
    expect(editingView(state, SAVED).canadian).toBe(true);
    expect(editingView(run({ type: 'setCanadian', canadian: true }, { type: 'setCanadian', canadian: false }), SAVED).canadian).toBe(false);
  });

  it("import's add appends the stocks not in the list (never toggles one off) and un-queues their deletion; nothing new leaves the state as it was", () => {
    const add = (stocks: FavoriteRow[]): EditingAction => ({ type: 'add', stocks, saved: SAVED });
    const view = editingView(run(remove('MSFT'), add([{ symbol: 'aapl', description: 'Apple again' }, RY, MSFT])), SAVED);
    expect(view.favorites).toEqual([AAPL, RY, MSFT]);
    expect(view.pendingDeletions).toEqual([]);
    expect(view.changed).toBe(true);
    expect(run(add([AAPL]))).toEqual(initialEditingState);
    expect(savePlan(run(add([RY])))).toEqual({ deleteSymbols: null, upsertStocks: [AAPL, MSFT, RY] });
  });
});
