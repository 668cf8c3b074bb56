import { SCAN_FIELDS } from '@signalboard/core';
import type { CatalogField } from '../builder-model';

/** The field catalogue as GET api/scans/fields answers it (the server's answer is core's SCAN_FIELDS). */
export const CATALOG: CatalogField[] = SCAN_FIELDS.map((spec) => ({
  ...spec,
  params: spec.params.map(({ name, default: fallback, min, max, choices }) => ({ name, default: fallback, min, max, ...(choices ? { choices: [...choices] } : {}) })),
}));
