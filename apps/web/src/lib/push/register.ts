/**
 * The service worker that shows browser push notifications (issue 27): public/sw.js, served at /sw.js so
 * that its scope is the whole app. It caches nothing and handles no fetch (see its header), so
 * registering it on every page load changes nothing about how the app loads; `updateViaCache: 'none'`
 * has the browser check /sw.js itself on each update, never its HTTP cache.
 */

export const SERVICE_WORKER_URL = '/sw.js';

/** What the worker posts to a window it could not navigate itself (public/sw.js, notificationclick). */
const NAVIGATE_MESSAGE = 'signalboard:navigate';

let listening = false;

/** A window the worker could not navigate (not under its control) takes itself to the notification's page. */
function followWorkerNavigation(container: ServiceWorkerContainer): void {
  if (listening) return;
  listening = true;
  container.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown; url?: unknown } | null;
    if (!data || data.type !== NAVIGATE_MESSAGE || typeof data.url !== 'string') return;
    const url = data.url;
    // A same-origin path only, as the worker sends.
    if (!url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return;
    window.location.assign(url);
  });
}

/**
 * Registers /sw.js with scope `/` where the browser has service workers and the page is a secure context
 * (https, or localhost); null elsewhere, or when registering fails (logged as a warning, never thrown).
 */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !globalThis.isSecureContext) return null;
    const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' });
    followWorkerNavigation(navigator.serviceWorker);
    return registration;
  } catch (error) {
    console.warn('Signalboard: the service worker could not be registered, so browser push is off on this device.', error);
    return null;
  }
}
