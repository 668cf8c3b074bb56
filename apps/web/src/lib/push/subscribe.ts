/**
 * Browser push on this device (issue 27): whether it can work here, turning it on (permission, then a
 * Push API subscription for the server's VAPID key) and off, and a name for the device. The server
 * stores what `enablePush` answers and sends to it; public/sw.js shows what arrives.
 */
import { registerServiceWorker } from './register';

export type PushSupportReason = 'ok' | 'insecure' | 'unsupported' | 'ios-needs-home-screen' | 'denied';

export interface PushSupport {
  supported: boolean;
  reason: PushSupportReason;
}

/** A Push API subscription as the server stores it (PushSubscription.toJSON()'s endpoint and keys). */
export interface PushSubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** What to tell the user when push cannot work on this device, by `pushSupport().reason`. */
export const PUSH_SUPPORT_MESSAGES: Record<Exclude<PushSupportReason, 'ok'>, string> = {
  insecure: 'Browser notifications need the app to be opened over https.',
  unsupported: 'This browser cannot receive push notifications.',
  'ios-needs-home-screen': 'On iPhone and iPad, add Signalboard to your Home Screen (Share, then Add to Home Screen) and turn on notifications from there.',
  denied: "Notifications are blocked for this site. Allow them in your browser's site settings, then try again.",
};

export const PERMISSION_REFUSED_MESSAGE = "Notifications were not allowed. Allow them in your browser's site settings to get alerts on this device.";

/** iPhone, iPad (also iPadOS's desktop-class Safari, which calls itself a Mac with a touch screen) or iPod. */
function isIos(): boolean {
  const userAgent = navigator.userAgent;
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && navigator.maxTouchPoints > 1);
}

/** Running as an installed app (from the Home Screen), not in a browser tab. */
function isStandalone(): boolean {
  if ((navigator as Navigator & { standalone?: boolean }).standalone === true) return true;
  return typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches;
}

/**
 * Whether push can be turned on here, and why not: 'insecure' (plain http other than localhost),
 * 'ios-needs-home-screen' (iOS gives web push only to a Home Screen app), 'unsupported' (no service
 * worker, Push API or notifications), 'denied' (the user blocked notifications for the site).
 */
export function pushSupport(): PushSupport {
  const no = (reason: Exclude<PushSupportReason, 'ok'>): PushSupport => ({ supported: false, reason });
  if (!globalThis.isSecureContext) return no('insecure');
  if (isIos() && !isStandalone()) return no('ios-needs-home-screen');
  if (!('serviceWorker' in navigator) || !('PushManager' in globalThis) || !('Notification' in globalThis)) return no('unsupported');
  if (Notification.permission === 'denied') return no('denied');
  return { supported: true, reason: 'ok' };
}

/** A base64url string (as VAPID public keys are given; standard base64 and padding accepted too) as bytes. */
export function base64UrlToUint8Array(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  let binary: string;
  try {
    binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  } catch {
    throw new Error("The server's push key is not valid base64url.");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** Asks for permission to notify (Safari's older callback form too); answers the permission. */
function requestPermission(): Promise<NotificationPermission> {
  if (Notification.permission === 'granted') return Promise.resolve('granted');
  return new Promise((resolve, reject) => {
    const answer = Notification.requestPermission(resolve) as Promise<NotificationPermission> | undefined;
    answer?.then(resolve, reject);
  });
}

/** This app's registration, once its worker is active: registers /sw.js first if it is not yet. */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (!existing && !(await registerServiceWorker())) throw new Error(PUSH_SUPPORT_MESSAGES.unsupported);
  return navigator.serviceWorker.ready;
}

/** This app's registration if there is one (no registering, no waiting). */
async function currentRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  return (await navigator.serviceWorker.getRegistration('/')) ?? null;
}

/**
 * Turns push on for this device: asks for permission (an Error with a sentence for the user when it is
 * refused or push cannot work here), then subscribes for `vapidPublicKey` (base64url), reusing this
 * device's subscription when it is for the same key and replacing one for another key. Answers the
 * subscription for the server. Call it from a click: browsers ask for permission only then.
 */
export async function enablePush(vapidPublicKey: string): Promise<PushSubscriptionKeys> {
  const support = pushSupport();
  if (support.reason !== 'ok') throw new Error(PUSH_SUPPORT_MESSAGES[support.reason]);
  const applicationServerKey = base64UrlToUint8Array(vapidPublicKey);
  // First, while the click still counts as the user's gesture (Safari asks only then).
  if ((await requestPermission()) !== 'granted') throw new Error(PERMISSION_REFUSED_MESSAGE);

  const registration = await activeRegistration();
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
    // Made for another key (the server's keys changed): the push service would refuse the new one's sends.
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    try {
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
    } catch (error) {
      // The browser's reason (a DOMException: "Registration failed - push service error", …).
      const message = (error as { message?: unknown } | null)?.message;
      const detail = typeof message === 'string' && message ? ` (${message})` : '';
      throw new Error(`This browser could not turn on push notifications${detail}. Try again, or use another browser.`, { cause: error });
    }
  }
  const { endpoint, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('This browser gave an incomplete push subscription. Try again, or use another browser.');
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** This device's push subscription endpoint (to mark "This device" in a list), or null when it has none. */
export async function currentPushEndpoint(): Promise<string | null> {
  try {
    const registration = await currentRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    return subscription?.endpoint ?? null;
  } catch {
    return null;
  }
}

/** Turns push off on this device: drops its subscription (the server forgets it separately). */
export async function disablePush(): Promise<void> {
  const registration = await currentRegistration();
  const subscription = await registration?.pushManager?.getSubscription();
  if (subscription) await subscription.unsubscribe();
}

/** The browser, first match wins (Edge, Opera and Samsung Internet also say Chrome; Chrome also says Safari). */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:Headless)?Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bAppleWebKit\/.*\bMobile\//, 'Safari'],
];

/** The system, first match wins (Android also says Linux; iPhone says "like Mac OS X"). */
const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b|\biPod\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** A name for this device in the list of push devices: "Chrome on Linux", "Safari on iPhone"; "This browser" when unknown. */
export function deviceName(userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) return 'This browser';
  return system ? `${browser} on ${system}` : browser;
}
