/**
 * The Docker packaging, checked without Docker (this machine has no daemon): docker-compose.yml is
 * valid against the Compose Specification's JSON schema (vendored in deploy/, see deploy/README.md)
 * and has the topology the README describes; its secrets have no defaults and reach the services
 * that need them; the app trusts exactly the proxy's address; the nginx config streams /api/live
 * unbuffered and rate-limits sign-in and reset; the TLS example (deploy/docker-compose.tls.yml,
 * deploy/Caddyfile) is valid and turns HSTS on; the Dockerfile is multi-stage on the current Node
 * LTS and runs as a non-root user.
 */
import { existsSync, readFileSync } from 'node:fs';
import { BlockList } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse, type CollectionTag } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { KEEP_ALIVE_TIMEOUT_MS } from '../src/lib/http-timeouts';

const root = (file: string) => fileURLToPath(new URL(`../../../${file}`, import.meta.url));
const read = (file: string) => readFileSync(root(file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  deploy?: { replicas?: number };
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  networks?: Record<string, { ipam?: { config?: Array<{ subnet?: string; ip_range?: string }> } }>;
}

/** Compose's `!reset` (an override file empties what the base file set): read as the value it resets to. */
const resetTag: CollectionTag = { tag: '!reset', collection: 'seq', resolve: (seq) => seq };

/** A compose file as Compose reads it (YAML merge keys `<<:` resolved). */
const loadComposeFile = (file: string): ComposeFile => parse(read(file), { merge: true, customTags: [resetTag] }) as ComposeFile;
const loadCompose = (): ComposeFile => loadComposeFile('docker-compose.yml');

/**
 * Compose's interpolation of every string: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?message}
 * (an error naming VAR when it is unset or empty), ${VAR?message} and $$ (a literal $).
 */
function interpolate<T>(value: T, env: Record<string, string>): T {
  if (typeof value === 'string') {
    return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g, (_match, name?: string, colon?: string, kind?: string, word?: string) => {
      if (name === undefined) return '$';
      const given = env[name];
      const missing = given === undefined || (colon === ':' && given === '');
      if (kind === '?' && missing) throw new Error(`required variable ${name} is missing a value: ${word}`);
      if (kind === '-' && missing) return word!;
      return given ?? '';
    }) as T;
  }
  if (Array.isArray(value)) return value.map((item: unknown) => interpolate(item, env)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)])) as T;
  return value;
}

/** The secrets docker-compose.yml requires, as an operator exports them. */
const SECRETS = { JWT_SECRET: 'j'.repeat(64), ENCRYPTION_KEY: 'e'.repeat(64), POSTGRES_PASSWORD: '0123abcd'.repeat(3), REDIS_PASSWORD: 'feed4567'.repeat(3) };

/** The compose network's fixed subnet and its range for containers without a fixed address. */
function composeNetwork(file: ComposeFile) {
  const [ipam] = file.networks?.default?.ipam?.config ?? [];
  expect(ipam?.subnet).toBeDefined();
  expect(ipam?.ip_range).toBeDefined();
  const block = (cidr: string) => {
    const [address, prefix] = cidr.split('/');
    const list = new BlockList();
    list.addSubnet(address!, Number(prefix), 'ipv4');
    return list;
  };
  const subnet = block(ipam!.subnet!);
  const dynamic = block(ipam!.ip_range!);
  /** A fixed address that no other container can be given: inside the subnet, outside the dynamic range. */
  return { isFixedAddress: (address: string) => subnet.check(address, 'ipv4') && !dynamic.check(address, 'ipv4') };
}

/** The Compose Specification schema (draft 2019-09; its `id` keywords predate `$id`, hence strict: false). */
function composeValidator() {
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  // Ajv refuses the old `id` keyword outright; here it only labels definitions, so it is ignored.
  ajv.removeKeyword('id');
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  return ajv.compile(JSON.parse(read('deploy/compose-spec.schema.json')) as object);
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    const validate = composeValidator();
    const valid = validate(loadCompose());
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('fails the schema when broken (the check can fail)', () => {
    const validate = composeValidator();
    const breakages: Array<(file: ComposeFile & Record<string, unknown>) => void> = [
      (file) => ((file.services.app!.deploy as Record<string, unknown>).replicas = true),
      (file) => (file.services.app!.depends_on!.postgres!.condition = 'service_ready'),
      (file) => ((file.services.redis!.healthcheck as Record<string, unknown>).tests = ['CMD', 'redis-cli', 'ping']),
      (file) => (file.servics = {}),
      (file) => ((file.services as Record<string, unknown>)['bad name!'] = { image: 'x' }),
    ];
    for (const breakIt of breakages) {
      const file = loadCompose() as ComposeFile & Record<string, unknown>;
      breakIt(file);
      expect(validate(file), breakIt.toString()).toBe(false);
    }
  });

  it('runs a proxy, the app in 2 replicas, a worker, PostgreSQL and Redis, each with a health check', () => {
    const { services, volumes } = loadCompose();
    expect(Object.keys(services).sort()).toEqual(['app', 'postgres', 'proxy', 'redis', 'worker']);
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test.length, `${name} has a health check`).toBeGreaterThan(1);
    }
    const { app, worker, proxy, postgres, redis } = services as Record<'app' | 'worker' | 'proxy' | 'postgres' | 'redis', Service>;
    expect(app.deploy?.replicas).toBe(2);
    expect(app.healthcheck!.test.join(' ')).toContain('/api/ready');
    expect(worker.command).toEqual(['node', 'apps/server/dist/worker.js']);
    expect(worker.image).toBe(app.image);
    for (const service of [app, worker]) {
      expect(service.environment).toMatchObject({ HOST: '0.0.0.0' });
      expect(service.environment!.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?.+\}@redis:6379$/);
      expect(service.environment!.DATABASE_URL).toMatch(/^postgres:\/\/signalboard:.*@postgres:5432\/signalboard$/);
      expect(service.environment!.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/); // required from the environment, never a default
      expect(service.environment!.ENCRYPTION_KEY).toMatch(/^\$\{ENCRYPTION_KEY:\?/); // one key for every process that opens stored secrets
      expect(service.environment!.PUBLIC_URL).toBeTruthy();
      expect(service.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    }
    expect(proxy.depends_on).toEqual({ app: { condition: 'service_healthy' } });
    expect(proxy.volumes).toContain('./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro');
    expect(postgres.image).toMatch(/^postgres:16/);
    expect(postgres.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(postgres.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(redis.image).toMatch(/^redis:7/);
    expect(redis.volumes).toContain('redis-data:/data');
    expect(redis.command!.slice(0, 3)).toEqual(['redis-server', '--appendonly', 'yes']);
    expect(Object.keys(volumes)).toEqual(expect.arrayContaining(['postgres-data', 'redis-data']));
  });
});

describe('docker-compose.yml secrets', () => {
  it('starts only with POSTGRES_PASSWORD, REDIS_PASSWORD, JWT_SECRET and ENCRYPTION_KEY set, naming the one missing (no default password)', () => {
    const compose = loadCompose();
    expect(() => interpolate(compose, SECRETS)).not.toThrow();
    for (const name of Object.keys(SECRETS) as Array<keyof typeof SECRETS>) {
      for (const value of [undefined, '']) {
        const env: Record<string, string> = { ...SECRETS };
        if (value === undefined) delete env[name];
        else env[name] = value;
        expect(() => interpolate(compose, env), `${name}=${String(value)}`).toThrow(new RegExp(`${name} is missing a value: set ${name}`));
      }
    }
    expect(read('docker-compose.yml')).not.toMatch(/PASSWORD:-/);
  });

  it('gives PostgreSQL its password and the app and worker a DATABASE_URL with it', () => {
    const { services } = interpolate(loadCompose(), SECRETS);
    expect(services.postgres!.environment!.POSTGRES_PASSWORD).toBe(SECRETS.POSTGRES_PASSWORD);
    for (const name of ['app', 'worker']) {
      expect(services[name]!.environment!.DATABASE_URL, name).toBe(`postgres://signalboard:${SECRETS.POSTGRES_PASSWORD}@postgres:5432/signalboard`);
    }
  });

  it('starts Redis with a password, checks its health signed in, and gives the app and worker a REDIS_URL carrying it', () => {
    const { services } = interpolate(loadCompose(), SECRETS);
    const redis = services.redis!;
    expect(redis.command).toEqual(['redis-server', '--appendonly', 'yes', '--requirepass', SECRETS.REDIS_PASSWORD]);
    // redis-cli signs in with REDISCLI_AUTH; it exits 0 on a NOAUTH error too, hence the PONG check.
    expect(redis.environment).toEqual({ REDISCLI_AUTH: SECRETS.REDIS_PASSWORD });
    expect(redis.healthcheck!.test).toEqual(['CMD-SHELL', 'redis-cli ping | grep -q PONG']);
    for (const name of ['app', 'worker']) {
      const url = new URL(services[name]!.environment!.REDIS_URL!);
      expect([url.protocol, url.username, url.password, url.host], name).toEqual(['redis:', '', SECRETS.REDIS_PASSWORD, 'redis:6379']);
    }
  });

  it("gives the app a configuration it starts with: the proxy's address as TRUST_PROXY, no demo account", () => {
    const { services } = interpolate(loadCompose(), SECRETS);
    const config = loadConfig(services.app!.environment!);
    expect(config).toMatchObject({ isExternalDatabase: true, isRedis: true, DEMO_ACCOUNT: false, HSTS_MAX_AGE_SECONDS: 0 });
    expect(config.TRUST_PROXY).toEqual([services.proxy!.networks!.default!.ipv4_address]);
  });
});

describe('docker-compose.yml: the app trusts exactly the proxy', () => {
  it("sets TRUST_PROXY to the proxy's fixed address, which no other container can be given", () => {
    const compose = loadCompose();
    const { app, worker, proxy } = compose.services;
    const proxyAddress = proxy!.networks?.default?.ipv4_address;
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(app!.environment!.TRUST_PROXY).toBe(proxyAddress);
    expect(worker!.environment!.TRUST_PROXY).toBe(proxyAddress);
    expect(composeNetwork(compose).isFixedAddress(proxyAddress!)).toBe(true);
    const fixed = Object.entries(compose.services).filter(([, service]) => service.networks?.default?.ipv4_address);
    expect(fixed.map(([name]) => name)).toEqual(['proxy']);
  });
});

describe('the TLS example (deploy/docker-compose.tls.yml, deploy/Caddyfile)', () => {
  const tls = loadComposeFile('deploy/docker-compose.tls.yml');
  const env = { ...SECRETS, SIGNALBOARD_DOMAIN: 'signals.example.com' };

  it('is valid against the Compose Specification schema', () => {
    const validate = composeValidator();
    const valid = validate(tls);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs Caddy on 80 and 443 with the Caddyfile, needs SIGNALBOARD_DOMAIN, and leaves nginx reachable only through it', () => {
    const caddy = tls.services.tls!;
    expect(caddy.image).toMatch(/^caddy:2/);
    expect(caddy.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
    expect(caddy.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(existsSync(root('deploy/Caddyfile'))).toBe(true);
    expect(caddy.depends_on).toEqual({ proxy: { condition: 'service_healthy' } });
    expect(caddy.healthcheck?.test.length).toBeGreaterThan(1);
    expect(() => interpolate(tls, SECRETS)).toThrow(/SIGNALBOARD_DOMAIN is missing a value/);
    expect(read('deploy/docker-compose.tls.yml')).toMatch(/^ {2}proxy:\n {4}ports: !reset \[\]$/m);
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toMatch(/^\{\$SIGNALBOARD_DOMAIN\} \{$/m);
    expect(caddyfile).toMatch(/^\treverse_proxy proxy:80 \{\n(\t\t.*\n)*\t\tflush_interval -1\n/m);
  });

  it('turns HSTS on and makes links https for the app (on top of docker-compose.yml)', () => {
    const base = interpolate(loadCompose(), env).services;
    const over = interpolate(tls, env).services;
    const config = loadConfig({ ...base.app!.environment, ...over.app!.environment });
    expect(config.HSTS_MAX_AGE_SECONDS).toBeGreaterThanOrEqual(31_536_000);
    expect(config.PUBLIC_URL).toBe('https://signals.example.com');
    expect(loadConfig({ ...base.worker!.environment, ...over.worker!.environment }).PUBLIC_URL).toBe('https://signals.example.com');
  });

  it("gives Caddy a fixed address of its own, the one nginx believes X-Forwarded-For from", () => {
    const caddyAddress = tls.services.tls!.networks?.default?.ipv4_address;
    const compose = loadCompose();
    expect(caddyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(caddyAddress).not.toBe(compose.services.proxy!.networks!.default!.ipv4_address);
    expect(composeNetwork(compose).isFixedAddress(caddyAddress!)).toBe(true);
    const nginx = read('deploy/nginx.conf');
    expect([...nginx.matchAll(/^\s*set_real_ip_from (\S+);/gm)].map((match) => match[1])).toEqual([caddyAddress]);
    expect(nginx).toMatch(/^\s*real_ip_header X-Forwarded-For;/m);
    // X-Forwarded-Proto is Caddy's word only from Caddy's address.
    expect(nginx).toMatch(new RegExp(`map \\$realip_remote_addr \\$signalboard_forwarded_proto \\{\\s*${caddyAddress!.replaceAll('.', '\\.')} \\$http_x_forwarded_proto;\\s*default \\$scheme;`));
  });
});

describe('deploy/nginx.conf', () => {
  const conf = read('deploy/nginx.conf');
  const block = (start: string) => {
    const at = conf.indexOf(start);
    expect(at, start).toBeGreaterThanOrEqual(0);
    return conf.slice(at, conf.indexOf('}', at));
  };

  it('balances over the app replicas', () => {
    expect(block('upstream signalboard_app')).toMatch(/server app:3000;/);
  });

  it('streams /api/live unbuffered with long timeouts', () => {
    const live = block('location /api/live {');
    expect(live).toMatch(/proxy_pass http:\/\/signalboard_app;/);
    expect(live).toMatch(/proxy_buffering off;/);
    expect(live).toMatch(/proxy_read_timeout 1h;/);
  });

  it('drops clients that trickle their request, and closes idle app connections before the app does', () => {
    for (const directive of ['client_header_timeout', 'client_body_timeout']) {
      const seconds = Number(new RegExp(`^\\s*${directive} (\\d+)s;$`, 'm').exec(conf)?.[1]);
      expect(seconds, directive).toBeGreaterThan(0);
      expect(seconds, directive).toBeLessThanOrEqual(60);
    }
    const upstreamIdle = Number(/keepalive_timeout (\d+)s;/.exec(block('upstream signalboard_app'))?.[1]);
    expect(upstreamIdle * 1000).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS);
  });

  it('passes a request id to the app', () => {
    expect(conf).toMatch(/proxy_set_header X-Request-Id \$signalboard_request_id;/);
  });

  it('rate-limits sign-in and password-reset calls per client address (limit_req), before the app', () => {
    for (const [path, zone] of [['/api/login', 'signalboard_login'], ['/api/forgot-password', 'signalboard_reset']] as const) {
      expect(conf).toMatch(new RegExp(`^limit_req_zone \\$binary_remote_addr zone=${zone}:\\d+m rate=\\d+r/m;$`, 'm'));
      const location = block(`location = ${path} {`);
      expect(location).toMatch(new RegExp(`limit_req zone=${zone} burst=\\d+ nodelay;`));
      expect(location).toMatch(/proxy_pass http:\/\/signalboard_app;/);
    }
  });

  it("answers nginx's own 429 like the app's limits: JSON with a msg and Retry-After", () => {
    expect(conf).toMatch(/^\s*limit_req_status 429;$/m);
    expect(conf).toMatch(/^\s*error_page 429 = @signalboard_too_many;$/m);
    const named = conf.slice(conf.indexOf('location @signalboard_too_many {'));
    expect(named).toMatch(/^\s*default_type application\/json;$/m);
    expect(named).toMatch(/^\s*add_header Retry-After \d+ always;$/m);
    const body = /^\s*return 429 '([^']+)';$/m.exec(named)?.[1];
    expect(JSON.parse(body!)).toEqual({ msg: expect.stringMatching(/^Too many .+\. Please try again in a minute\.$/) });
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+\s/.test(line));
  const stages = instructions.filter((line) => line.startsWith('FROM '));
  const runtime = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

  it('builds every stage on Node 26, the Active LTS line on 2026-12-01 (Node 20 is past its end of life)', () => {
    expect(instructions.filter((line) => line.startsWith('ARG NODE_VERSION'))).toEqual(['ARG NODE_VERSION=26']);
    expect(stages.every((line) => line.startsWith('FROM node:${NODE_VERSION}-slim') || /^FROM [a-z-]+ AS /.test(line)), stages.join('\n')).toBe(true);
  });

  it('is multi-stage and its runtime stage runs as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages.at(-1)).toMatch(/^FROM node:\$\{NODE_VERSION\}-slim AS runtime$/);
    const users = runtime.filter((line) => line.startsWith('USER '));
    expect(users).toEqual(['USER node']);
  });

  it('installs only production dependencies into the runtime, and serves the API with a health check', () => {
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(runtime.some((line) => line.startsWith('COPY --from=build') && line.includes('apps/server/dist'))).toBe(true);
    expect(runtime).toContain('EXPOSE 3000');
    expect(runtime.find((line) => line.startsWith('HEALTHCHECK'))).toBeDefined();
    expect(dockerfile).toMatch(/\/api\/health/);
    expect(runtime.at(-1)).toBe('CMD ["node", "apps/server/dist/server.js"]');
  });

  it('is built from a context without local data, dependencies or git history', () => {
    const ignored = read('.dockerignore').split('\n').map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git', 'data']));
  });
});
