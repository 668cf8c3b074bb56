/**
 * The check on every URL a user gives the server to call (alert channels: webhooks, ntfy, Discord…),
 * when it is saved and again when it is sent: a user-entered URL must not reach the server's own
 * network (SSRF). The answer pins the one address the request then connects to (post-pinned.ts), so a
 * second DNS answer cannot move it elsewhere (DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** The admin's settings: WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_HOSTS. */
export interface OutboundUrlRules {
  allowHttp: boolean;
  allowHosts: readonly string[];
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

/** The operating system's resolver (getaddrinfo: /etc/hosts, then DNS), every address in its order. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/**
 * A URL the server refuses to call; the message is a sentence for the user (the API answers it as 400
 * `{ msg }`). `transient`: the host did not resolve, which a later try may change (a delivery retries).
 */
export class OutboundUrlError extends Error {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

/** A URL that passed, with the one resolved address the request must connect to. */
export interface CheckedUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

export const MAX_URL_LENGTH = 2_048;

export const NOT_A_URL_MSG = 'Enter a full URL starting with https://, e.g. https://example.com/hooks/signalboard.';
export const HTTP_NOT_ALLOWED_MSG = 'The URL must start with https:// (this server accepts http:// only when its admin sets WEBHOOK_ALLOW_HTTP=true).';
export const SCHEME_MSG = 'The URL must start with https://.';
export const CREDENTIALS_MSG = 'Leave the user name and password out of the URL.';
export const TOO_LONG_MSG = 'The URL is longer than 2,048 characters.';

const unresolvedMsg = (host: string) => `The host ${host} could not be resolved.`;
const article = (range: string) => (range === 'unspecified' || range === 'invalid' ? 'an' : 'a');
const blockedMsg = (host: string, range: string, address: string) =>
  `The URL's host ${host} is on ${article(range)} ${range} address (${address}); this server refuses loopback, link-local, private and multicast addresses unless its admin allow-lists the host (WEBHOOK_ALLOW_HOSTS).`;

/** [first address, prefix length, range name]; the first match names the range, so a narrower range comes before a wider one. */
const IPV4_REFUSED: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** A dotted-decimal IPv4 address as an unsigned 32-bit number. */
function ipv4Value(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

const IPV4_RANGES = IPV4_REFUSED.map(([first, bits, name]) => ({ start: ipv4Value(first), size: 2 ** (32 - bits), name }));

function ipv4Range(address: string): string | null {
  const value = ipv4Value(address);
  return IPV4_RANGES.find((range) => value >= range.start && value < range.start + range.size)?.name ?? null;
}

/** A valid IPv6 address (net.isIPv6) as its eight 16-bit groups; a zone (`%eth0`) is dropped. */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const value = ipv4Value(tail);
    text = `${text.slice(0, text.length - tail.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', rest] = text.split('::');
  if (rest === undefined) return parse(head);
  const before = parse(head);
  const after = parse(rest);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const startsWithGroups = (groups: readonly number[], prefix: readonly number[]) => prefix.every((group, index) => groups[index] === group);

function ipv6Range(address: string): string | null {
  const groups = ipv6Groups(address);
  const first = groups[0]!;
  if (groups.every((group) => group === 0)) return 'unspecified';
  if (startsWithGroups(groups, [0, 0, 0, 0, 0, 0, 0, 1])) return 'loopback';
  // IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses reach the IPv4 address they carry.
  if (startsWithGroups(groups, [0, 0, 0, 0, 0, 0xffff]) || startsWithGroups(groups, [0x64, 0xff9b, 0, 0, 0, 0])) {
    return ipv4Range(`${groups[6]! >>> 8}.${groups[6]! & 0xff}.${groups[7]! >>> 8}.${groups[7]! & 0xff}`);
  }
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'site-local';
  if ((first & 0xfe00) === 0xfc00) return 'unique local';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && groups[1] === 0x0db8) return 'documentation';
  // Outside global unicast (2000::/3): IPv4-compatible (::a.b.c.d), discard-only, unassigned space.
  if ((first & 0xe000) !== 0x2000) return 'reserved';
  return null;
}

/**
 * The range an address is on when the server must refuse to call it ('loopback', 'private',
 * 'link-local', 'multicast', 'unspecified', 'carrier-grade NAT', 'reserved', 'unique local',
 * 'broadcast', 'documentation', 'benchmarking', 'site-local'), or null when it is public. An
 * IPv4-mapped or NAT64 IPv6 address is judged by the IPv4 address it carries; text that is no IP
 * address is 'invalid' (refused too).
 */
export function blockedRange(address: string): string | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const version = isIP(bare);
  if (version === 4) return ipv4Range(bare);
  if (version === 6) return ipv6Range(bare);
  return 'invalid';
}

/** A host as the allow-list compares it: lower case, no trailing dot, IPv4 dotted and IPv6 canonical without brackets. */
function hostKey(host: string): string {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  let key = bare.toLowerCase();
  try {
    key = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname;
  } catch {
    // Not a host a URL could name: compare it as written.
  }
  return key.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

function parseUrl(raw: string, rules: OutboundUrlRules): URL {
  if (raw.length > MAX_URL_LENGTH) throw new OutboundUrlError(TOO_LONG_MSG);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError(NOT_A_URL_MSG);
  }
  if (url.protocol === 'http:' && !rules.allowHttp) throw new OutboundUrlError(HTTP_NOT_ALLOWED_MSG);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundUrlError(SCHEME_MSG);
  if (url.username || url.password) throw new OutboundUrlError(CREDENTIALS_MSG);
  return url;
}

/**
 * Checks a user's URL before the server calls it, on save and again on every send (a DNS record
 * can change in between): https (http only when the admin allows it), no credentials, at most 2,048
 * characters, and every address its host resolves to public, unless the admin allow-lists the host.
 * The answer pins the first address: the request connects there and nowhere else.
 */
export async function checkOutboundUrl(raw: string, rules: OutboundUrlRules, resolve: Resolver = systemResolver): Promise<CheckedUrl> {
  const url = parseUrl(raw, rules);
  const host = url.hostname;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(bare);
  let addresses: Array<{ address: string; family: 4 | 6 }>;
  if (literal === 4 || literal === 6) {
    addresses = [{ address: bare, family: literal }];
  } else {
    try {
      addresses = await resolve(bare);
    } catch {
      throw new OutboundUrlError(unresolvedMsg(host), true);
    }
  }
  const pinned = addresses[0];
  if (!pinned) throw new OutboundUrlError(unresolvedMsg(host), true);
  const allowed = new Set(rules.allowHosts.map(hostKey));
  if (!allowed.has(hostKey(host))) {
    // Every address, not only the pinned one: a record set mixing public and private addresses is refused.
    for (const { address } of addresses) {
      const range = blockedRange(address);
      if (range) throw new OutboundUrlError(blockedMsg(host, range, address));
    }
  }
  return { url, address: pinned.address, family: pinned.family };
}
