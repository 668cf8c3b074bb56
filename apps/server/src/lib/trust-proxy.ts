/**
 * TRUST_PROXY: the reverse proxies whose X-Forwarded-For the app believes (request.ip, and so the
 * per-address limits, become the client the proxy saw). Only addresses and CIDR ranges: a setting
 * that trusts every sender would let any client name its own address and escape those limits.
 */
import { BlockList, isIP } from 'node:net';

const EXAMPLE = 'e.g. TRUST_PROXY=172.28.0.10 or 10.0.0.0/24,fd00::/64';

/** Ranges that contain every IPv4 address (an IPv4-mapped IPv6 range of /96 or wider does too). */
function trustsEveryone(address: string, prefix: number): boolean {
  if (prefix === 0) return true;
  if (isIP(address) !== 6 || prefix > 96) return false;
  const range = new BlockList();
  range.addSubnet(address, prefix, 'ipv6');
  return range.check('::ffff:0.0.0.0', 'ipv6') && range.check('::ffff:255.255.255.255', 'ipv6');
}

/** One entry: an address or address/prefix; answers a problem, or undefined when it is fine. */
function entryProblem(entry: string): string | undefined {
  if (entry === 'true' || entry === '*') return `"${entry}" would trust every client's X-Forwarded-For; list your proxies' addresses (${EXAMPLE})`;
  const [address = '', prefixText, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR range (${EXAMPLE})`;
  if (prefixText === undefined) return undefined;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix <= (family === 4 ? 32 : 128))) return `"${entry}" has a bad prefix length (${EXAMPLE})`;
  if (trustsEveryone(address, prefix)) return `"${entry}" contains every address and would trust every client's X-Forwarded-For; list your proxies' addresses (${EXAMPLE})`;
  return undefined;
}

/** Parses a comma- (or space-) separated list; answers the entries or the problems with them. */
export function parseTrustProxy(value: string): { proxies: string[]; problems: string[] } {
  const proxies = value
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const problems = proxies.map(entryProblem).filter((problem): problem is string => problem !== undefined);
  if (proxies.length === 0) problems.push(`TRUST_PROXY lists no address (${EXAMPLE})`);
  return { proxies, problems };
}
