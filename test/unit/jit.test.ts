// A build asks V8 to optimise later (see src/pipeline/jit.ts), unless the user chose a budget of their own.
import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { INTERRUPT_BUDGET, optimiseLater } from '../../src/pipeline/jit.ts';

const jit = suite('optimising later');

jit('leaves a budget the user chose on the command line or in NODE_OPTIONS, and only that flag counts', () => {
  assert.not.ok(optimiseLater(INTERRUPT_BUDGET, ['--interrupt-budget=1000']), 'node --interrupt-budget=1000: kept');
  assert.not.ok(
    optimiseLater(INTERRUPT_BUDGET, ['--max-old-space-size=4096 --interrupt_budget=500']),
    'in NODE_OPTIONS',
  );
  // A flag that only starts with the name is another flag.
  const script = `import('${new URL('../../src/pipeline/jit.ts', import.meta.url).href}').then(({ optimiseLater }) => process.stdout.write(String(optimiseLater(undefined, ['--interrupt-budget-for-feedback-allocation=940']))))`;
  const set = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.is(set, 'true', 'the budget is set beside --interrupt-budget-for-feedback-allocation');
});

jit.run();
