/*
 * Signalboard's service worker: browser push for alerts (issue 27; docs/rules/alerts.md §4.8). Served
 * at /sw.js, so its scope is the whole app; the server sends it with `cache-control: no-cache` and the
 * page registers it with `updateViaCache: 'none'` (src/lib/push/register.ts), so a new one is picked up
 * on the next visit.
 *
 * The no-cache rule: this worker caches nothing and has no `fetch` listener. Every request goes to the
 * network as if no worker were installed, so a stale build (an old index.html naming hashed assets a
 * new deploy removed) can never be served from here. The app's own HTTP caching (immutable hashed
 * assets, no-cache pages; apps/server/src/app.ts) is the only cache. Do not add a fetch handler or
 * the Cache API here without revisiting that rule.
 *
 * A push's payload is JSON: { title, body, url, tag, type } with `url` a same-origin path such as
 * "/dashboard/alert?tab=history". Every push shows a notification (browsers require it of a
 * `userVisibleOnly` subscription): one without data, or whose data is not that JSON, shows a generic one.
 */
/* global self */

const ICON = '/icons/icon-192.png';
const FALLBACK_URL = '/dashboard/alert?tab=history';
const FALLBACK_TITLE = 'Signalboard alert';
const FALLBACK_BODY = 'You have a new alert. Open Signalboard to see it.';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** A same-origin path of this app from what a payload or a notification carries, else the alert history. */
function safeUrl(value) {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return FALLBACK_URL;
  try {
    const url = new URL(value, self.location.origin);
    return url.origin === self.location.origin ? url.pathname + url.search + url.hash : FALLBACK_URL;
  } catch {
    return FALLBACK_URL;
  }
}

/** The notification a push shows: its payload's, or the generic one. */
function notificationOf(data) {
  let payload = null;
  if (data) {
    try {
      payload = data.json();
    } catch {
      payload = null;
    }
  }
  if (!payload || typeof payload !== 'object') return { title: FALLBACK_TITLE, options: { body: FALLBACK_BODY, icon: ICON, badge: ICON, data: { url: FALLBACK_URL } } };
  const title = typeof payload.title === 'string' && payload.title.trim() ? payload.title : FALLBACK_TITLE;
  const body = typeof payload.body === 'string' ? payload.body : FALLBACK_BODY;
  const options = { body, icon: ICON, badge: ICON, data: { url: safeUrl(payload.url), type: typeof payload.type === 'string' ? payload.type : undefined } };
  if (typeof payload.tag === 'string' && payload.tag) options.tag = payload.tag;
  return { title, options };
}

self.addEventListener('push', (event) => {
  const { title, options } = notificationOf(event.data);
  event.waitUntil(self.registration.showNotification(title, options));
});

/** Focuses an open window of this app and takes it to `url`, or opens a new one there. */
async function openApp(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const client = windows.find((candidate) => new URL(candidate.url).origin === self.location.origin);
  if (!client) {
    await self.clients.openWindow(url);
    return;
  }
  let focused = client;
  try {
    focused = (await client.focus()) ?? client;
  } catch {
    // Focus refused (the browser's rules on who may focus a window): still take the window there.
  }
  if (focused.url === new URL(url, self.location.origin).href) return;
  // navigate() works on a window this worker controls (every open one after clients.claim()); for any
  // other the page takes itself there (src/lib/push/register.ts listens for this message).
  if (typeof focused.navigate === 'function') {
    try {
      await focused.navigate(url);
      return;
    } catch {
      // Not controlled by this worker: ask the page instead.
    }
  }
  focused.postMessage({ type: 'signalboard:navigate', url });
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = safeUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(openApp(url));
});
