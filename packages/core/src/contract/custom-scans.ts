import { z } from 'zod';

/**
 * Custom scans (issue 26, docs/custom-scans.md): the field catalogue the builder and the formula
 * parser share (`GET api/scans/fields`), as packages/core/src/custom-scans/fields.ts declares it.
 */

export const scanFieldParam = z.object({
  name: z.string(),
  default: z.number(),
  min: z.number(),
  max: z.number(),
  choices: z.array(z.number()).optional(),
});

export const scanFieldSpec = z.object({
  name: z.string(),
  label: z.string(),
  unit: z.enum(['price', 'percent', 'points', 'ratio', 'dollars', 'days', 'count', 'text']),
  kind: z.enum(['number', 'text']),
  params: z.array(scanFieldParam),
  source: z.enum(['bars', 'sector', 'exchange', 'earnings', 'news']),
  description: z.string(),
});

export const scanFieldsResponse = z.object({ fields: z.array(scanFieldSpec) });
export type ScanFieldsResponse = z.infer<typeof scanFieldsResponse>;
