import { z } from 'zod';

/**
 * zod compiles fast parsers with `new Function` unless told not to, and probes for it first: under
 * our CSP (`script-src 'self'`, no 'unsafe-eval') the probe is reported as a CSP violation. The
 * setting is read when a schema is defined, so this module is imported before any other (main.tsx).
 */
z.config({ jitless: true });
