import QRCode from 'qrcode';
import { useMemo } from 'react';

/** Modules of light margin around the code, as the QR standard asks. */
const QUIET_ZONE = 4;

/**
 * A QR code drawn as inline SVG (one path of dark modules on white, whatever the colour scheme: a
 * phone's camera reads dark on light). Inline, so the page's Content-Security-Policy (img-src 'self')
 * allows it, and the value never leaves the page.
 */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const { path, extent } = useMemo(() => {
    const { modules } = QRCode.create(value, { errorCorrectionLevel: 'M' });
    const parts: string[] = [];
    for (let row = 0; row < modules.size; row += 1) {
      for (let column = 0; column < modules.size; column += 1) {
        if (modules.get(row, column)) parts.push(`M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
      }
    }
    return { path: parts.join(''), extent: modules.size + 2 * QUIET_ZONE };
  }, [value]);
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${extent} ${extent}`} shapeRendering="crispEdges" style={{ display: 'block' }}>
      <rect width={extent} height={extent} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}

export default QrCode;
