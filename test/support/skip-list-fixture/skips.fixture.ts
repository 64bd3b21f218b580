// Run by test/support/skip-list.test.ts with its own config: one test skipped with a reason, one run.
import { expect, it } from 'vitest';
import { optIn } from '../requirements.js';

it.runIf(optIn('HEED_SKIP_LIST_FIXTURE', 'never', 'skips.fixture.ts, the opt-in case', 'nobody sets it'))('opt-in', () => {});
it('runs', () => expect(1).toBe(1));
