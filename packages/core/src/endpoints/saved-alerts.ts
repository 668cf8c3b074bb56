/**
 * The alerts a user saves on the Option Scanner and All Stocks Scanner screens (spec §3 "Saved option
 * alerts", "Saved stock scanner alert"; §7): a group of their own, so the two trade screens that load
 * them do not carry the Alert System's schemas.
 */
import {
  getUserOptionAlertsResponse,
  getUserStockScannerAlertsResponse,
  saveUserOptionAlertsRequest,
  saveUserOptionAlertsResponse,
  saveUserStockScannerAlertsRequest,
  saveUserStockScannerAlertsResponse,
} from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const savedAlertsEndpoints = endpointGroup({
  getUserOptionAlerts: defineEndpoint({ operationId: 'getUserOptionAlerts', method: 'get', path: '/api/get_user_option_alerts', summary: "The signed-in user's saved option alerts (option trade ids), oldest first", response: getUserOptionAlertsResponse }),
  saveUserOptionAlerts: defineEndpoint({
    operationId: 'saveUserOptionAlerts',
    method: 'post',
    path: '/api/save_user_option_alerts',
    summary: "Replace the signed-in user's saved option alerts with these option trades (an empty list clears them); ids of unknown or closed trades are left out and listed in `dropped`",
    body: saveUserOptionAlertsRequest,
    response: saveUserOptionAlertsResponse,
  }),
  getUserStockScannerAlerts: defineEndpoint({ operationId: 'getUserStockScannerAlerts', method: 'get', path: '/api/get_user_stock_scanner_alerts', summary: "The signed-in user's saved drop alerts (stock_id, trade_type), oldest first", response: getUserStockScannerAlertsResponse }),
  saveUserStockScannerAlerts: defineEndpoint({
    operationId: 'saveUserStockScannerAlerts',
    method: 'post',
    path: '/api/save_user_stock_scanner_alerts',
    summary: "Replace the signed-in user's saved drop alerts with these drop items (an empty list clears them); unknown or deactivated items, or a trade_type that is not the item's StockType, are left out and listed in `dropped`",
    body: saveUserStockScannerAlertsRequest,
    response: saveUserStockScannerAlertsResponse,
  }),
});
