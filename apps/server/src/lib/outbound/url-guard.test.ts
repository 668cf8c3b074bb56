import { describe, expect, it } from 'vitest';
import {
  blockedRange,
  checkOutboundUrl,
  CREDENTIALS_MSG,
  HTTP_NOT_ALLOWED_MSG,
  NOT_A_URL_MSG,
  OutboundUrlError,
  type OutboundUrlRules,
  type Resolver,
  SCHEME_MSG,
  TOO_LONG_MSG,
} from './url-guard';

const HTTPS_ONLY: OutboundUrlRules = { allowHttp: false, allowHosts: [] };
const WITH_HTTP: OutboundUrlRules = { allowHttp: true, allowHosts: [] };

/** A resolver answering from a table; a host missing from it is an error, as NXDOMAIN is. */
function fakeResolver(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { asked });
}

async function refusal(raw: string, rules = WITH_HTTP, resolve: Resolver = fakeResolver({})): Promise<string> {
  const error: unknown = await checkOutboundUrl(raw, rules, resolve).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundUrlError);
  return (error as OutboundUrlError).message;
}

const blockedMsg = (host: string, range: string, address: string, article = 'a') =>
  `The URL's host ${host} is on ${article} ${range} address (${address}); this server refuses loopback, link-local, private and multicast addresses unless its admin allow-lists the host (WEBHOOK_ALLOW_HOSTS).`;

describe('blockedRange on IPv4', () => {
  // [last address before the range, first in it, last in it, first after it]; null: that neighbour
  // is itself refused (or does not exist), so it proves nothing about this range's edge.
  const edges: Array<[string, string | null, string, string, string | null]> = [
    ['unspecified', null, '0.0.0.0', '0.255.255.255', '1.0.0.0'],
    ['private', '9.255.255.255', '10.0.0.0', '10.255.255.255', '11.0.0.0'],
    ['carrier-grade NAT', '100.63.255.255', '100.64.0.0', '100.127.255.255', '100.128.0.0'],
    ['loopback', '126.255.255.255', '127.0.0.0', '127.255.255.255', '128.0.0.0'],
    ['link-local', '169.253.255.255', '169.254.0.0', '169.254.255.255', '169.255.0.0'],
    ['private', '172.15.255.255', '172.16.0.0', '172.31.255.255', '172.32.0.0'],
    ['reserved', '191.255.255.255', '192.0.0.0', '192.0.0.255', '192.0.1.0'],
    ['documentation', '192.0.1.255', '192.0.2.0', '192.0.2.255', '192.0.3.0'],
    ['private', '192.167.255.255', '192.168.0.0', '192.168.255.255', '192.169.0.0'],
    ['benchmarking', '198.17.255.255', '198.18.0.0', '198.19.255.255', '198.20.0.0'],
    ['documentation', '198.51.99.255', '198.51.100.0', '198.51.100.255', '198.51.101.0'],
    ['documentation', '203.0.112.255', '203.0.113.0', '203.0.113.255', '203.0.114.0'],
    ['multicast', '223.255.255.255', '224.0.0.0', '239.255.255.255', null],
    ['reserved', null, '240.0.0.0', '255.255.255.254', null],
    ['broadcast', null, '255.255.255.255', '255.255.255.255', null],
  ];
  it.each(edges)('refuses the %s range from its first to its last address, and not its public neighbours', (range, before, first, last, after) => {
    expect(blockedRange(first)).toBe(range);
    expect(blockedRange(last)).toBe(range);
    if (before) expect(blockedRange(before)).toBeNull();
    if (after) expect(blockedRange(after)).toBeNull();
  });

  it('answers null for public addresses', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '93.184.216.34', '223.255.255.255']) expect(blockedRange(address)).toBeNull();
  });
});

describe('blockedRange on IPv6', () => {
  it.each([
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
    ['fec0::1', 'site-local'],
    ['fc00::', 'unique local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local'],
    ['ff00::', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    ['2001:db8::', 'documentation'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    // IPv4-mapped: judged by the IPv4 address inside, in either notation.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    // NAT64: the same.
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::c0a8:101', 'private'],
    // Outside global unicast: IPv4-compatible, discard-only, unassigned.
    ['::2', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['100::1', 'reserved'],
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['4000::', 'reserved'],
  ])('refuses %s as %s', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it('answers null for global unicast, and for public IPv4 behind the mapped and NAT64 prefixes', () => {
    for (const address of [
      '2000::',
      '2606:4700:4700::1111',
      '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
      '2001:db9::',
      '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '64:ff9b::8.8.8.8',
      '[2606:4700:4700::1111]',
    ]) {
      expect(blockedRange(address), address).toBeNull();
    }
  });

  it('refuses text that is no IP address', () => {
    expect(blockedRange('localhost')).toBe('invalid');
    expect(blockedRange('256.0.0.1')).toBe('invalid');
  });
});

describe('checkOutboundUrl: the URL itself', () => {
  it('answers the URL with the first resolved address pinned', async () => {
    const resolve = fakeResolver({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    const checked = await checkOutboundUrl('https://hooks.example.com/in?x=1', HTTPS_ONLY, resolve);
    expect(checked.url.href).toBe('https://hooks.example.com/in?x=1');
    expect(checked).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(resolve.asked).toEqual(['hooks.example.com']);
  });

  it('asks for a full URL when the text is no absolute URL', async () => {
    for (const raw of ['', 'hooks.example.com/in', '/hooks', 'https://', 'https://exa mple.com/']) expect(await refusal(raw)).toBe(NOT_A_URL_MSG);
  });

  it('refuses http:// unless the admin allows it, naming the setting', async () => {
    expect(await refusal('http://hooks.example.com/', HTTPS_ONLY)).toBe(HTTP_NOT_ALLOWED_MSG);
    const resolve = fakeResolver({ 'hooks.example.com': ['93.184.216.34'] });
    expect((await checkOutboundUrl('http://hooks.example.com/', WITH_HTTP, resolve)).address).toBe('93.184.216.34');
  });

  it('refuses every other scheme', async () => {
    for (const raw of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://example.com/', 'ws://example.com/']) {
      expect(await refusal(raw)).toBe(SCHEME_MSG);
    }
  });

  it('refuses a user name or password in the URL', async () => {
    for (const raw of ['https://user:secret@example.com/', 'https://user@example.com/', 'https://:secret@example.com/']) expect(await refusal(raw)).toBe(CREDENTIALS_MSG);
  });

  it('takes 2,048 characters and refuses one more', async () => {
    const base = 'https://hooks.example.com/';
    const resolve = fakeResolver({ 'hooks.example.com': ['93.184.216.34'] });
    const longest = base + 'a'.repeat(2_048 - base.length);
    expect((await checkOutboundUrl(longest, HTTPS_ONLY, resolve)).url.href).toBe(longest);
    expect(await refusal(`${longest}a`)).toBe(TOO_LONG_MSG);
  });
});

describe('checkOutboundUrl: where the URL leads', () => {
  it('refuses a name that resolves to a loopback or private address', async () => {
    const resolve = fakeResolver({ localhost: ['127.0.0.1'], 'intranet.example.com': ['10.0.0.7'], 'v6.example.com': ['::1'] });
    expect(await refusal('https://localhost/', HTTPS_ONLY, resolve)).toBe(blockedMsg('localhost', 'loopback', '127.0.0.1'));
    expect(await refusal('https://intranet.example.com/', HTTPS_ONLY, resolve)).toBe(blockedMsg('intranet.example.com', 'private', '10.0.0.7'));
    expect(await refusal('https://v6.example.com/', HTTPS_ONLY, resolve)).toBe(blockedMsg('v6.example.com', 'loopback', '::1'));
  });

  it('refuses a record set mixing public and private addresses, wherever the private one is', async () => {
    const resolve = fakeResolver({ 'first.example.com': ['93.184.216.34', '169.254.169.254'], 'last.example.com': ['2606:4700::1', 'fd00::1'] });
    expect(await refusal('https://first.example.com/', HTTPS_ONLY, resolve)).toBe(blockedMsg('first.example.com', 'link-local', '169.254.169.254'));
    expect(await refusal('https://last.example.com/', HTTPS_ONLY, resolve)).toBe(blockedMsg('last.example.com', 'unique local', 'fd00::1'));
  });

  it('checks a literal IP without resolving it, and pins that address', async () => {
    const noResolver = fakeResolver({});
    expect(await checkOutboundUrl('https://93.184.216.34/x', HTTPS_ONLY, noResolver)).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(await checkOutboundUrl('https://[2606:4700::1111]/x', HTTPS_ONLY, noResolver)).toMatchObject({ address: '2606:4700::1111', family: 6 });
    expect(await refusal('http://127.0.0.1:8080/', WITH_HTTP, noResolver)).toBe(blockedMsg('127.0.0.1', 'loopback', '127.0.0.1'));
    expect(await refusal('http://[::1]/', WITH_HTTP, noResolver)).toBe(blockedMsg('[::1]', 'loopback', '::1'));
    expect(await refusal('http://[::ffff:127.0.0.1]/', WITH_HTTP, noResolver)).toBe(blockedMsg('[::ffff:7f00:1]', 'loopback', '::ffff:7f00:1'));
    expect(await refusal('http://0.0.0.0/', WITH_HTTP, noResolver)).toBe(blockedMsg('0.0.0.0', 'unspecified', '0.0.0.0', 'an'));
    expect(await refusal('http://169.254.169.254/latest/meta-data/', WITH_HTTP, noResolver)).toBe(blockedMsg('169.254.169.254', 'link-local', '169.254.169.254'));
    expect(noResolver.asked).toEqual([]);
  });

  it('refuses decimal, octal and hex IPv4 forms (the URL parser writes them dotted)', async () => {
    const noResolver = fakeResolver({});
    for (const raw of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://0x7f000001/', 'http://127.1/', 'http://017700000001/']) {
      expect(new URL(raw).hostname).toBe('127.0.0.1');
      expect(await refusal(raw, WITH_HTTP, noResolver)).toBe(blockedMsg('127.0.0.1', 'loopback', '127.0.0.1'));
    }
    expect(await refusal('http://0xa9.0xfe.0xa9.0xfe/', WITH_HTTP, noResolver)).toBe(blockedMsg('169.254.169.254', 'link-local', '169.254.169.254'));
    expect(noResolver.asked).toEqual([]);
  });

  it('says so when a host does not resolve, or resolves to nothing', async () => {
    const resolve = fakeResolver({ 'empty.example.com': [] });
    expect(await refusal('https://nowhere.example.com/', HTTPS_ONLY, resolve)).toBe('The host nowhere.example.com could not be resolved.');
    expect(await refusal('https://empty.example.com/', HTTPS_ONLY, resolve)).toBe('The host empty.example.com could not be resolved.');
  });

  it('lets an allow-listed host reach a refused range, still resolved and pinned', async () => {
    const resolve = fakeResolver({ 'ntfy.lan': ['192.168.1.20', '10.0.0.2'], 'ntfy.lan.': ['192.168.1.20'], 'other.lan': ['192.168.1.21'] });
    const rules: OutboundUrlRules = { allowHttp: true, allowHosts: ['NTFY.lan.', '127.0.0.1', '[0:0:0:0:0:0:0:1]', 'fd00::0001'] };
    expect(await checkOutboundUrl('http://ntfy.lan/alerts', rules, resolve)).toMatchObject({ address: '192.168.1.20', family: 4 });
    expect(await checkOutboundUrl('http://Ntfy.LAN./alerts', rules, resolve)).toMatchObject({ address: '192.168.1.20' });
    expect(await checkOutboundUrl('http://127.0.0.1:2586/', rules, resolve)).toMatchObject({ address: '127.0.0.1' });
    expect(await checkOutboundUrl('http://[::1]:2586/', rules, resolve)).toMatchObject({ address: '::1', family: 6 });
    expect(await checkOutboundUrl('http://[fd00::1]/', rules, resolve)).toMatchObject({ address: 'fd00::1', family: 6 });
    // Another host on the same network is still refused, and so is another loopback address.
    expect(await refusal('http://other.lan/', rules, resolve)).toBe(blockedMsg('other.lan', 'private', '192.168.1.21'));
    expect(await refusal('http://127.0.0.2/', rules, resolve)).toBe(blockedMsg('127.0.0.2', 'loopback', '127.0.0.2'));
    // Allow-listed, but it must still resolve.
    expect(await refusal('http://ntfy.lan.example/', { ...rules, allowHosts: ['ntfy.lan.example'] }, resolve)).toBe('The host ntfy.lan.example could not be resolved.');
  });
});
