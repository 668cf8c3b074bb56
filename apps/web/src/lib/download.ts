import { CSV_BOM } from '@signalboard/core';

/** Saves text as a file through a temporary link (the browser's download). */
export function downloadText(filename: string, text: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Saves a CSV (core's `toCsv`, or a server's file) with its byte-order mark: `Response.text()`
 * drops the server's, and Excel needs it to read UTF-8 (docs/data-in-and-out.md "Exports").
 */
export function downloadCsv(filename: string, text: string): void {
  downloadText(filename, text.startsWith(CSV_BOM) ? text : `${CSV_BOM}${text}`, 'text/csv;charset=utf-8');
}
