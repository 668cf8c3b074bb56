import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { SUPPORT_ATTACHMENT_MAX_BYTES } from '@signalboard/core';
import { HttpError } from './errors';

const NO_FILES_MSG = 'This form takes no files.';

export interface UploadedFile {
  fieldname: string;
  filename: string;
  content: Buffer;
  mimetype: string;
}

export interface MultipartLimits {
  fileSize: number;
  files: number;
  tooLargeMsg: string;
  /**
   * The whole body must have arrived within this long (UPLOAD_TIMEOUT_SECONDS), else 408 with a
   * `msg` and the connection closed: a client trickling its body (a slow loris) holds nothing for
   * longer — the caller's upload slot, the memory of the parts read so far.
   */
  timeoutMs?: number;
}

export type MultipartForm = { fields: Record<string, string>; files: UploadedFile[] };

export function uploadTimeoutMsg(timeoutMs: number): string {
  const seconds = Math.round(timeoutMs / 1000);
  return `The upload took too long: the whole request must arrive within ${seconds === 1 ? '1 second' : `${seconds} seconds`}. Please try again on a faster connection or with a smaller file.`;
}

/**
 * Registers the multipart parser in `app`'s own scope, for the few routes that take a form with
 * files (contact support, the stock-high-low form post, the one-click unsubscribe): registered for
 * every route, its hooks (an async onRequest, an async onResponse that cleans saved files) ran on
 * every request of the API. Elsewhere a multipart body answers 415 with a `msg` (app.ts).
 */
export async function acceptMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: SUPPORT_ATTACHMENT_MAX_BYTES, files: 1, fields: 10, fieldSize: 100 * 1024 } });
}

/**
 * The fields of a form that takes no files: multipart (a browser's FormData; a file part answers 400)
 * or url-encoded/JSON (the body as parsed). The route's scope must `acceptMultipart`.
 */
export async function readFormFields(request: FastifyRequest): Promise<unknown> {
  if (!request.isMultipart()) return request.body ?? {};
  return (await readMultipart(request, { fileSize: 1024, files: 0, tooLargeMsg: NO_FILES_MSG })).fields;
}

/**
 * Reads a whole multipart form: text fields, and every file part read to the end (a part left
 * unread would stall the parser, and the request with it). A body the parser cannot read answers
 * 400; limits answer 413; a body slower than `timeoutMs` 408; each with a `msg`.
 */
export async function readMultipart(request: FastifyRequest, limits: MultipartLimits): Promise<MultipartForm> {
  const reading = readParts(request, limits);
  if (!limits.timeoutMs) return reading;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HttpError(408, uploadTimeoutMsg(limits.timeoutMs!), { headers: { connection: 'close' } })), limits.timeoutMs);
  });
  try {
    return await Promise.race([reading, expired]);
  } catch (error) {
    // Timed out: the rest of the body is not read (the answer closes the connection, which ends the parser's stream).
    reading.catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function readParts(request: FastifyRequest, limits: MultipartLimits): Promise<MultipartForm> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts({ limits: { fileSize: limits.fileSize, files: Math.max(limits.files, 1), fields: 10, fieldSize: 100 * 1024 } })) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (limits.files === 0) throw new HttpError(400, NO_FILES_MSG);
        if (part.filename && content.length > 0) files.push({ fieldname: part.fieldname, filename: part.filename, content, mimetype: part.mimetype });
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw limits.files === 0 ? new HttpError(400, NO_FILES_MSG) : new HttpError(413, limits.tooLargeMsg);
    if (code === 'FST_FILES_LIMIT') throw new HttpError(413, limits.files === 1 ? 'Attach at most one file.' : `Attach at most ${limits.files} files.`);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new HttpError(413, 'The form has too many fields.');
    if (code === 'FST_PROTO_VIOLATION') throw new HttpError(400, 'The form has a forbidden field name.');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(400, 'The request is not multipart/form-data.');
    if ((error as { statusCode?: number }).statusCode === undefined) {
      throw new HttpError(400, `The multipart form could not be read (${(error as Error).message}).`);
    }
    throw error;
  }
  return { fields, files };
}

