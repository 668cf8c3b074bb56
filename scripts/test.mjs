// `npm test`: the type check, the lint, the structure check and the build at once (each is mostly one core's work, and
// none needs another), then the unit suites, then the browser suite on that build. Each step's
// output is printed as a block when it ends; the first failing step fails the whole, after the
// steps running beside it have ended.
import { spawn } from 'node:child_process';

const STEPS_AT_ONCE = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['structure', 'npm', ['run', 'check:structure']],
  ['build', 'npm', ['run', 'build']],
];
const STEPS_AFTER = [
  ['unit', 'npm', ['run', 'test:unit']],
  ['e2e', 'npx', ['vitest', 'run', '--project', 'e2e', '--reporter=default', '--reporter=json', '--outputFile.json=.e2e-artifacts/reports/e2e.json']],
];

function run([name, command, args], { stream }) {
  const started = Date.now();
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    if (!stream) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('exit', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (!stream) process.stdout.write(`\n── ${name} ──\n${output}`);
      console.log(`test: ${name} ${code === 0 ? 'passed' : `failed (${code ?? signal})`} in ${seconds} s`);
      resolve(code === 0);
    });
  });
}

const together = await Promise.all(STEPS_AT_ONCE.map((step) => run(step, { stream: false })));
if (together.includes(false)) process.exit(1);
for (const step of STEPS_AFTER) {
  if (!(await run(step, { stream: true }))) process.exit(1);
}
