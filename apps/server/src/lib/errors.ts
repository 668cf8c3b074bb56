import type { ZodType, z } from 'zod';
import { formatIssues } from '@signalboard/core';

/** An error that becomes `{ msg }` (and `error` when given) with its status code. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { error?: string; code?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const badRequest = (msg: string) => new HttpError(400, msg);
export const unauthorized = (msg: string) => new HttpError(401, msg);

/** Validates input at the edge: a failure is a 400 whose `msg` says what is wrong. */
export function parseInput<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    throw badRequest('The request body must be a JSON object with the fields of this call.');
  }
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(formatIssues(result.error));
  return result.data;
}

/** Validates one value (not a body), e.g. an uploaded file's name: a failure is a 400 naming it. */
export function parseValue<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(formatIssues(result.error));
  return result.data;
}
