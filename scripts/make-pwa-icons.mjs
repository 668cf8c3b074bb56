// `node scripts/make-pwa-icons.mjs`: remakes the web app's install icons (issue 27, the installable app
// that receives browser push) under apps/web/public/icons/ from apps/web/public/icon.svg, with the
// Chromium at /usr/bin/chromium, or CHROMIUM_PATH as in e2e/support/browser.ts (playwright-core; no
// browser is downloaded). The PNGs are checked in: run this again after changing icon.svg and commit
// what it writes.
//
// icon.svg is favicon.svg drawn for a large size: the same rising line in white on a rounded square of
// the app's primary blue (#4263eb, brand.7 in apps/web/src/theme.ts), with the line centred and a little
// thinner than the 32-pixel favicon needs.
//
//   icons/icon-192.png, icon-512.png  the manifest's `any` icons: the rounded square, corners transparent;
//   icons/maskable-512.png            `maskable`: the blue fills the square (the platform cuts its own
//                                     shape) and the mark sits inside the central 80 % circle, the safe zone;
//   icons/apple-touch-icon.png        180×180 for iOS's home screen: opaque (iOS shows transparency as
//                                     black) with the corners filled; iOS rounds them itself.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = path.join(ROOT, 'apps/web/public');
const SOURCE = path.join(PUBLIC, 'icon.svg');
const OUT = path.join(PUBLIC, 'icons');
const BLUE = '#4263eb';

/** file, size in pixels, the share of the side the icon takes (centred), the background (null: transparent). */
const ICONS = [
  { file: 'icon-192.png', size: 192, scale: 1, background: null },
  { file: 'icon-512.png', size: 512, scale: 1, background: null },
  // At 0.8 the mark's farthest point (the line's ends, with the stroke's half width) is 0.33 of the
  // side from the centre, inside the safe zone's radius of 0.4; the rounded square's corners vanish
  // into the same blue.
  { file: 'maskable-512.png', size: 512, scale: 0.8, background: BLUE },
  { file: 'apple-touch-icon.png', size: 180, scale: 1, background: BLUE },
];

const svg = await fs.readFile(SOURCE, 'utf8');
const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
await fs.mkdir(OUT, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, scale, background } of ICONS) {
    const side = Math.round(size * scale);
    const offset = (size - side) / 2;
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;overflow:hidden;background:${background ?? 'transparent'}">` +
        `<img src="${src}" width="${side}" height="${side}" style="position:absolute;left:${offset}px;top:${offset}px;display:block" alt=""></body></html>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    const target = path.join(OUT, file);
    await page.screenshot({ path: target, omitBackground: background === null, clip: { x: 0, y: 0, width: size, height: size } });
    console.log(`${path.relative(ROOT, target)} ${size}×${size}${background === null ? ', transparent corners' : ', opaque'}`);
  }
} finally {
  await browser.close();
}
