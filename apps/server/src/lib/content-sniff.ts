import { isUtf8 } from 'node:buffer';

/** What an attachment is, by its bytes; the media type the mail carries for it. */
export type AttachmentType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'application/pdf' | 'text/plain; charset=utf-8';

export const ALLOWED_ATTACHMENTS_MSG = 'The attachment must be an image (PNG, JPEG, GIF or WebP), a PDF or a plain text file (UTF-8).';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const PDF = ascii('%PDF-');

/**
 * Text a browser would render as a page (the WHATWG MIME sniffing patterns for HTML, and XML/SVG):
 * markup at the start, after white space and a byte-order mark. Such a file is not "plain text".
 */
const MARKUP_START = /^(<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--|<\?xml|<svg)(?=[\t\n\f\r >/]|$)/i;
const WHITE_SPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/** The first characters after a byte-order mark and any white space (however long). */
function headOf(bytes: Uint8Array): string {
  let start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (start < bytes.length && WHITE_SPACE.has(bytes[start]!)) start += 1;
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(bytes.length - start, 32)).toString('latin1');
}

/**
 * The attachment's type from its content (never its declared type or file name): PNG, JPEG, GIF,
 * WebP and PDF by their magic bytes; text when it is valid UTF-8 without NUL bytes and does not
 * start as markup. Anything else (executables, archives, office files, HTML…) is undefined.
 */
export function sniffAttachment(bytes: Uint8Array): AttachmentType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  if (startsWith(bytes, PDF)) return 'application/pdf';
  if (bytes.includes(0) || !isUtf8(bytes)) return undefined;
  return MARKUP_START.test(headOf(bytes)) ? undefined : 'text/plain; charset=utf-8';
}
