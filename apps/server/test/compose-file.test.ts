/**
 * The Docker packaging, checked without Docker (this machine has no daemon): docker-compose.yml is
 * valid against the Compose Specification's JSON schema (vendored in deploy/, see deploy/README.md)
 * and has the topology the README describes; the nginx config streams /api/live unbuffered; the
 * Dockerfile is multi-stage and runs as a non-root user.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = (file: string) => fileURLToPath(new URL(`../../../${file}`, import.meta.url));
const read = (file: string) => readFileSync(root(file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  deploy?: { replicas?: number };
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

/** The compose file as Compose reads it (YAML merge keys `<<:` resolved). */
const loadCompose = (): ComposeFile => parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;

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
      expect(service.environment).toMatchObject({ HOST: '0.0.0.0', REDIS_URL: 'redis://redis:6379' });
      expect(service.environment!.DATABASE_URL).toMatch(/^postgres:\/\/signalboard:.*@postgres:5432\/signalboard$/);
      expect(service.environment!.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/); // required from the environment, never a default
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
    expect(redis.command).toEqual(['redis-server', '--appendonly', 'yes']);
    expect(redis.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(Object.keys(volumes)).toEqual(expect.arrayContaining(['postgres-data', 'redis-data']));
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

  it('passes a request id to the app', () => {
    expect(conf).toMatch(/proxy_set_header X-Request-Id \$signalboard_request_id;/);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+\s/.test(line));
  const stages = instructions.filter((line) => line.startsWith('FROM '));
  const runtime = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

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
