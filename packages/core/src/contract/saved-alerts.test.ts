import { describe, expect, it } from 'vitest';
import { formatIssues } from './common';
import { SAVED_ALERTS_MAX, saveUserOptionAlertsRequest, saveUserStockScannerAlertsRequest } from './saved-alerts';

const msgOf = (result: { success: boolean; error?: Parameters<typeof formatIssues>[0] }) => {
  expect(result.success).toBe(false);
  return formatIssues(result.error!);
};

describe('saved alerts contract', () => {
  it('trims ids and takes an empty list (it clears the set)', () => {
    expect(saveUserOptionAlertsRequest.parse({ option_chain_ids: [' options.SPY.2026-03-02@1.0.0\t'] })).toEqual({ option_chain_ids: ['options.SPY.2026-03-02@1.0.0'] });
    expect(saveUserOptionAlertsRequest.parse({ option_chain_ids: [] })).toEqual({ option_chain_ids: [] });
    expect(saveUserStockScannerAlertsRequest.parse({ alerts: [{ stock_id: ' drop.A.2026-03-02.L@1.0.0 ', trade_type: 'L' }] })).toEqual({
      alerts: [{ stock_id: 'drop.A.2026-03-02.L@1.0.0', trade_type: 'L' }],
    });
  });

  it('names what is wrong', () => {
    expect(msgOf(saveUserOptionAlertsRequest.safeParse({}))).toBe('option_chain_ids must be a list of option trade ids');
    expect(msgOf(saveUserOptionAlertsRequest.safeParse({ option_chain_ids: [null] }))).toBe('Option trade id must be text');
    expect(msgOf(saveUserOptionAlertsRequest.safeParse({ option_chain_ids: Array(SAVED_ALERTS_MAX + 1).fill('a') }))).toBe('option_chain_ids may hold at most 500 ids');
    expect(msgOf(saveUserStockScannerAlertsRequest.safeParse({ alerts: [{ stock_id: 'x', trade_type: 'X' }] }))).toBe('trade_type must be S, L or O');
    expect(msgOf(saveUserStockScannerAlertsRequest.safeParse({ alerts: [{ stock_id: ' ', trade_type: 'S' }] }))).toBe('stock_id must not be empty');
    expect(msgOf(saveUserStockScannerAlertsRequest.safeParse({ alerts: [{ stock_id: 'a\u007f', trade_type: 'S' }] }))).toBe('stock_id must not contain line breaks or other control characters');
  });
});
