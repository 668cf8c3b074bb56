/**
 * Browser push on this device (issue 27): what can work where (pushSupport), the VAPID key's bytes,
 * turning push on with the browser's Push API stubbed (reusing a subscription for the same key,
 * replacing one for another, refusing with a sentence), and the device names in the list.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PERMISSION_REFUSED_MESSAGE,
  PUSH_SUPPORT_MESSAGES,
  base64UrlToUint8Array,
  currentPushEndpoint,
  deviceName,
  disablePush,
  enablePush,
  pushSupport,
} from './subscribe';
import { registerServiceWorker } from './register';

const UA = {
  chromeLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  chromeOs: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  chromeIpad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  // A Home Screen app on iOS leaves out Version/ and Safari/.
  homeScreenIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  // iPadOS's Safari asks for desktop sites: it says Macintosh (and has a touch screen).
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  samsungAndroid: 'Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
};

// ---- Stubs: own properties over the browser's, put back after each test ----------------------

const restores: Array<() => void> = [];
function stub(target: object, key: string, value: unknown) {
  const own = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, configurable: true, writable: true });
  restores.push(() => {
    if (own) Object.defineProperty(target, key, own);
    else delete (target as Record<string, unknown>)[key];
  });
}

interface Browser {
  userAgent?: string;
  secure?: boolean;
  standalone?: boolean;
  displayModeStandalone?: boolean;
  maxTouchPoints?: number;
  permission?: NotificationPermission;
  /** What the permission prompt answers. */
  prompt?: NotificationPermission;
  push?: boolean;
}

function stubBrowser(browser: Browser = {}) {
  const { userAgent = UA.chromeLinux, secure = true, standalone, displayModeStandalone = false, maxTouchPoints = 0, permission = 'default', prompt = 'granted', push = true } = browser;
  stub(navigator, 'userAgent', userAgent);
  stub(navigator, 'maxTouchPoints', maxTouchPoints);
  if (standalone !== undefined) stub(navigator, 'standalone', standalone);
  vi.stubGlobal('isSecureContext', secure);
  stub(window, 'matchMedia', (query: string) => ({ matches: displayModeStandalone && query === '(display-mode: standalone)', media: query }) as MediaQueryList);
  const requestPermission = vi.fn(async () => prompt);
  if (push) {
    vi.stubGlobal('Notification', { permission, requestPermission });
    vi.stubGlobal('PushManager', class {});
  }
  return { requestPermission };
}

/** A VAPID public key: an uncompressed P-256 point, 65 bytes from 0x04. */
const keyBytes = (seed: number) => Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : (i * seed) % 256));
const KEY = Buffer.from(keyBytes(7)).toString('base64url');
const OTHER_KEY_BYTES = keyBytes(11);

function fakeSubscription(endpoint: string, key: Uint8Array) {
  return {
    endpoint,
    options: { applicationServerKey: key.slice().buffer, userVisibleOnly: true },
    unsubscribe: vi.fn(async () => true),
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: `p256dh-of-${endpoint}`, auth: `auth-of-${endpoint}` } }),
  };
}
type FakeSubscription = ReturnType<typeof fakeSubscription>;

/** navigator.serviceWorker with this app's registration (or none yet) and its pushManager. */
function stubServiceWorker(options: { existing?: FakeSubscription | null; registered?: boolean } = {}) {
  const { existing = null, registered = true } = options;
  const fresh = fakeSubscription('https://push.example.com/fresh', keyBytes(7));
  const pushManager = { getSubscription: vi.fn(async () => existing), subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => fresh) };
  const registration = { scope: 'http://localhost:3000/', pushManager };
  let isRegistered = registered;
  const container = {
    getRegistration: vi.fn(async () => (isRegistered ? registration : undefined)),
    register: vi.fn(async () => {
      isRegistered = true;
      return registration;
    }),
    ready: Promise.resolve(registration),
    addEventListener: vi.fn(),
  };
  stub(navigator, 'serviceWorker', container);
  return { container, pushManager, fresh };
}

/** Puts the browser back as it was (after each test, and between the cases of one). */
function resetStubs() {
  for (const restore of restores.reverse()) restore();
  restores.length = 0;
  vi.unstubAllGlobals();
}
beforeEach(() => {
  restores.length = 0;
});
afterEach(resetStubs);

// ---- deviceName ------------------------------------------------------------------------------

describe('deviceName', () => {
  it.each([
    [UA.chromeLinux, 'Chrome on Linux'],
    [UA.chromeAndroid, 'Chrome on Android'],
    [UA.chromeOs, 'Chrome on ChromeOS'],
    [UA.chromeIpad, 'Chrome on iPad'],
    [UA.safariIphone, 'Safari on iPhone'],
    [UA.homeScreenIphone, 'Safari on iPhone'],
    [UA.safariMac, 'Safari on macOS'],
    [UA.firefoxWindows, 'Firefox on Windows'],
    [UA.firefoxAndroid, 'Firefox on Android'],
    [UA.edgeWindows, 'Edge on Windows'],
    [UA.samsungAndroid, 'Samsung Internet on Android'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['curl/8.5.0', 'This browser'],
    ['', 'This browser'],
  ])('%s → %s', (userAgent, name) => {
    expect(deviceName(userAgent)).toBe(name);
  });

  it("reads this browser's user agent by default", () => {
    stub(navigator, 'userAgent', UA.edgeWindows);
    expect(deviceName()).toBe('Edge on Windows');
  });
});

// ---- pushSupport -----------------------------------------------------------------------------

describe('pushSupport', () => {
  it('is ok on a secure page of a browser with service workers, the Push API and notifications', () => {
    stubBrowser();
    stubServiceWorker();
    expect(pushSupport()).toEqual({ supported: true, reason: 'ok' });
  });

  it('is insecure on plain http (before anything else: browsers hide the APIs there)', () => {
    stubBrowser({ secure: false, push: false });
    expect(pushSupport()).toEqual({ supported: false, reason: 'insecure' });
  });

  it('is unsupported without a service worker, the Push API or notifications', () => {
    stubBrowser({ push: false });
    stubServiceWorker();
    expect(pushSupport()).toEqual({ supported: false, reason: 'unsupported' });
    resetStubs();
    stubBrowser();
    expect(pushSupport()).toEqual({ supported: false, reason: 'unsupported' });
  });

  it('is denied when the user blocked notifications for the site', () => {
    stubBrowser({ permission: 'denied' });
    stubServiceWorker();
    expect(pushSupport()).toEqual({ supported: false, reason: 'denied' });
  });

  it('asks iPhone and iPad users to add the app to the Home Screen, unless it runs from there', () => {
    for (const [userAgent, maxTouchPoints] of [
      [UA.safariIphone, 5],
      [UA.chromeIpad, 5],
      [UA.safariMac, 5], // iPadOS's desktop-class Safari
    ] as const) {
      // In the browser iOS has no Push API at all: the answer is still "add it to the Home Screen".
      stubBrowser({ userAgent, maxTouchPoints, push: false });
      expect(pushSupport(), userAgent).toEqual({ supported: false, reason: 'ios-needs-home-screen' });
      resetStubs();
      stubBrowser({ userAgent, maxTouchPoints, standalone: false });
      stubServiceWorker();
      expect(pushSupport(), userAgent).toEqual({ supported: false, reason: 'ios-needs-home-screen' });
      resetStubs();
    }
    // From the Home Screen: navigator.standalone, or the display mode.
    stubBrowser({ userAgent: UA.homeScreenIphone, maxTouchPoints: 5, standalone: true });
    stubServiceWorker();
    expect(pushSupport()).toEqual({ supported: true, reason: 'ok' });
    resetStubs();
    stubBrowser({ userAgent: UA.safariIphone, maxTouchPoints: 5, displayModeStandalone: true });
    stubServiceWorker();
    expect(pushSupport()).toEqual({ supported: true, reason: 'ok' });
    resetStubs();
    // A Home Screen app on iOS before 16.4: no Push API.
    stubBrowser({ userAgent: UA.homeScreenIphone, maxTouchPoints: 5, standalone: true, push: false });
    expect(pushSupport()).toEqual({ supported: false, reason: 'unsupported' });
  });

  it('takes a Mac without a touch screen for a Mac', () => {
    stubBrowser({ userAgent: UA.safariMac, maxTouchPoints: 0 });
    stubServiceWorker();
    expect(pushSupport()).toEqual({ supported: true, reason: 'ok' });
  });
});

// ---- base64url -------------------------------------------------------------------------------

describe('base64UrlToUint8Array', () => {
  it('reads base64url, with or without padding, and plain base64', () => {
    expect(Array.from(base64UrlToUint8Array('-_8'))).toEqual([0xfb, 0xff]);
    expect(Array.from(base64UrlToUint8Array('-_8='))).toEqual([0xfb, 0xff]);
    expect(Array.from(base64UrlToUint8Array('+/8='))).toEqual([0xfb, 0xff]);
    expect(Array.from(base64UrlToUint8Array('AQAB'))).toEqual([1, 0, 1]);
    expect(Array.from(base64UrlToUint8Array(''))).toEqual([]);
    expect(Array.from(base64UrlToUint8Array(` ${KEY}\n`))).toEqual(Array.from(keyBytes(7)));
    expect(base64UrlToUint8Array(KEY)).toHaveLength(65);
  });

  it('refuses what is not base64url', () => {
    expect(() => base64UrlToUint8Array('not a key!')).toThrow("The server's push key is not valid base64url.");
  });
});

// ---- enablePush, currentPushEndpoint, disablePush --------------------------------------------

describe('enablePush', () => {
  it('asks for permission, then subscribes with the key, visible notifications only', async () => {
    const { requestPermission } = stubBrowser();
    const { pushManager, fresh } = stubServiceWorker();
    await expect(enablePush(KEY)).resolves.toEqual({ endpoint: fresh.endpoint, keys: { p256dh: `p256dh-of-${fresh.endpoint}`, auth: `auth-of-${fresh.endpoint}` } });
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    const options = pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect(Array.from(options.applicationServerKey as Uint8Array)).toEqual(Array.from(keyBytes(7)));
  });

  it("reuses this device's subscription when it is for the same key", async () => {
    const { requestPermission } = stubBrowser({ permission: 'granted' });
    const existing = fakeSubscription('https://push.example.com/existing', keyBytes(7));
    const { pushManager } = stubServiceWorker({ existing });
    await expect(enablePush(KEY)).resolves.toEqual({ endpoint: existing.endpoint, keys: { p256dh: `p256dh-of-${existing.endpoint}`, auth: `auth-of-${existing.endpoint}` } });
    expect(requestPermission).not.toHaveBeenCalled();
    expect(existing.unsubscribe).not.toHaveBeenCalled();
    expect(pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('replaces a subscription made for another key', async () => {
    stubBrowser({ permission: 'granted' });
    const existing = fakeSubscription('https://push.example.com/old', OTHER_KEY_BYTES);
    const { pushManager, fresh } = stubServiceWorker({ existing });
    await expect(enablePush(KEY)).resolves.toMatchObject({ endpoint: fresh.endpoint });
    expect(existing.unsubscribe).toHaveBeenCalledTimes(1);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect(existing.unsubscribe.mock.invocationCallOrder[0]).toBeLessThan(pushManager.subscribe.mock.invocationCallOrder[0]!);
  });

  it('registers the service worker first when the page has not yet', async () => {
    stubBrowser();
    const { container, pushManager } = stubServiceWorker({ registered: false });
    await enablePush(KEY);
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/', updateViaCache: 'none' });
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
  });

  it('throws a sentence for the user when permission is refused, and subscribes nothing', async () => {
    for (const prompt of ['denied', 'default'] as const) {
      stubBrowser({ prompt });
      const { pushManager } = stubServiceWorker();
      await expect(enablePush(KEY)).rejects.toThrow(PERMISSION_REFUSED_MESSAGE);
      expect(pushManager.getSubscription).not.toHaveBeenCalled();
      expect(pushManager.subscribe).not.toHaveBeenCalled();
      resetStubs();
    }
    expect(PERMISSION_REFUSED_MESSAGE).toMatch(/^[A-Z].*\.$/);
  });

  it("throws pushSupport's sentence where push cannot work, without asking", async () => {
    const blocked = stubBrowser({ permission: 'denied' });
    stubServiceWorker();
    await expect(enablePush(KEY)).rejects.toThrow(PUSH_SUPPORT_MESSAGES.denied);
    expect(blocked.requestPermission).not.toHaveBeenCalled();
    resetStubs();
    const iphone = stubBrowser({ userAgent: UA.safariIphone, maxTouchPoints: 5 });
    await expect(enablePush(KEY)).rejects.toThrow(PUSH_SUPPORT_MESSAGES['ios-needs-home-screen']);
    expect(iphone.requestPermission).not.toHaveBeenCalled();
  });

  it('throws a sentence when the browser refuses to subscribe', async () => {
    stubBrowser({ permission: 'granted' });
    const { pushManager } = stubServiceWorker();
    pushManager.subscribe.mockRejectedValueOnce(new DOMException('Registration failed - push service error', 'AbortError'));
    await expect(enablePush(KEY)).rejects.toThrow(/^This browser could not turn on push notifications \(Registration failed - push service error\)\./);
  });
});

describe("this device's subscription", () => {
  it('answers its endpoint, or null without a registration or a subscription', async () => {
    stubBrowser();
    stubServiceWorker({ existing: fakeSubscription('https://push.example.com/mine', keyBytes(7)) });
    await expect(currentPushEndpoint()).resolves.toBe('https://push.example.com/mine');
    stubServiceWorker({ existing: null });
    await expect(currentPushEndpoint()).resolves.toBeNull();
    stubServiceWorker({ registered: false });
    await expect(currentPushEndpoint()).resolves.toBeNull();
  });

  it('is unsubscribed by disablePush', async () => {
    stubBrowser();
    const existing = fakeSubscription('https://push.example.com/mine', keyBytes(7));
    stubServiceWorker({ existing });
    await disablePush();
    expect(existing.unsubscribe).toHaveBeenCalledTimes(1);
    stubServiceWorker({ registered: false });
    await expect(disablePush()).resolves.toBeUndefined();
  });
});

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole app, never from the HTTP cache', async () => {
    stubBrowser();
    const { container } = stubServiceWorker({ registered: false });
    await expect(registerServiceWorker()).resolves.toMatchObject({ scope: 'http://localhost:3000/' });
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/', updateViaCache: 'none' });
  });

  it('answers null on an insecure page or without service workers', async () => {
    stubBrowser({ secure: false });
    const { container } = stubServiceWorker({ registered: false });
    await expect(registerServiceWorker()).resolves.toBeNull();
    expect(container.register).not.toHaveBeenCalled();
    resetStubs();
    stubBrowser();
    await expect(registerServiceWorker()).resolves.toBeNull();
  });

  it('answers null and warns when registering fails, never throws', async () => {
    stubBrowser();
    const { container } = stubServiceWorker({ registered: false });
    container.register.mockRejectedValueOnce(new Error('SecurityError'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(registerServiceWorker()).resolves.toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
