/**
 * What an alert of a rule records of it (docs/rules/alerts.md): the rule as it was when the alert
 * fired, and the channels it goes out on.
 */
import { ALERT_TYPE_NAMES, type AlertChannel, type AlertType } from '@signalboard/core';
import type { RuleRow } from './evaluation.repo';

export const ruleSnapshot = (rule: RuleRow): Record<string, unknown> => ({
  alert_type: rule.alertType,
  type_name: ALERT_TYPE_NAMES[rule.alertType as AlertType] ?? rule.alertType,
  stock_symbols: rule.symbols,
  threshold_value: rule.thresholdValue,
  targets: rule.targets,
  enable_sms: rule.enableSms,
  enable_email: rule.enableEmail,
  is_active: rule.isActive,
  saved_at: rule.updatedAt.toISOString(),
});

export const channelsOf = (rule: Pick<RuleRow, 'enableSms' | 'enableEmail'>): AlertChannel[] => [
  ...(rule.enableSms ? (['sms'] as const) : []),
  ...(rule.enableEmail ? (['email'] as const) : []),
];
