// `npm test`: every check and test, arranged so that both cores stay busy.
// Run one after another, the checks (mostly one core: Prettier, astro check,
// ESLint), the two sites' builds (mostly one core each) and the browser runs'
// quiet moments (a page waiting on its server) left a core idle for minutes.
//
//   stage 1: the format, type and lint checks | the unit tests | building the browser tests' site | building the payment tests' site
//   stage 2: the browser tests (2 workers) | the payment tests (1 worker)
//
// Each task's output is printed whole when it ends, under its name, so the
// log reads as the tasks' own logs one after another. A stage runs only when
// every task of the one before passed. The npm scripts (check, test:unit,
// test:e2e, test:e2e:payments) still run each part alone.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Task {
  name: string;
  command: string[];
  env?: Record<string, string>;
}

const mainPort = Number(process.env.E2E_PORT ?? 4399);
// The payment run's site and stand-in sit above every server copy of the main run (its port plus up to 180).
const paymentsPort = mainPort + 200;
const mainSite = { E2E_DIR: mkdtempSync(join(tmpdir(), 'medspa-e2e-')), E2E_PORT: String(mainPort) };
const paymentsSite = { E2E_DIR: mkdtempSync(join(tmpdir(), 'medspa-e2e-pay-')), E2E_PORT: String(paymentsPort) };

const stages: Task[][] = [
  [
    // npm run check's three parts, each under its own name in the log. Side by
    // side they saved no time (stage 1: 105.3 s against 106.6 s): the stage is
    // CPU-bound, and the unit tests became its last task again.
    { name: 'format check', command: ['npm', 'run', 'check:format'] },
    { name: 'type check', command: ['npm', 'run', 'check:types'] },
    { name: 'lint', command: ['npm', 'run', 'lint'] },
    { name: 'unit tests', command: ['npx', 'vitest', 'run'] },
    { name: "browser tests' site", command: ['node', 'tests/support/e2e-build.ts', 'playwright.config.ts'], env: mainSite },
    { name: "payment tests' site", command: ['node', 'tests/support/e2e-build.ts', 'playwright.payments.config.ts'], env: paymentsSite },
  ],
  [
    { name: 'browser tests', command: ['npx', 'playwright', 'test'], env: { ...mainSite, E2E_SITE_BUILT: '1' } },
    {
      name: 'payment tests',
      command: ['npx', 'playwright', 'test', '-c', 'playwright.payments.config.ts', '--workers=1'],
      env: { ...paymentsSite, E2E_SITE_BUILT: '1' },
    },
  ],
];

const seconds = (since: number) => `${Math.round((performance.now() - since) / 100) / 10} s`;

function run(task: Task): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(task.command[0]!, task.command.slice(1), { env: { ...process.env, ...task.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code, signal) => {
      const passed = code === 0;
      process.stdout.write(`\n===== ${task.name}: ${passed ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(started)} =====\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(passed);
    });
  });
}

const started = performance.now();
for (const [index, stage] of stages.entries()) {
  console.log(`test: stage ${index + 1} of ${stages.length}: ${stage.map((task) => task.name).join(', ')}`);
  const results = await Promise.all(stage.map(run));
  if (results.includes(false)) {
    console.log(
      `\ntest: FAILED in stage ${index + 1}: ${stage
        .filter((_, i) => !results[i])
        .map((task) => task.name)
        .join(', ')} (${seconds(started)})`,
    );
    process.exit(1);
  }
}
console.log(`\ntest: everything passed in ${seconds(started)}`);
