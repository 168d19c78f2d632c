/**
 * The tests run in shuffled order (vitest.config.ts `sequence.shuffle`, docs/decisions.md "Tests
 * stand alone"). Vitest prints the seed when the run starts; this reporter prints it again under a
 * failed run, with the command that replays that order.
 */
import type { Reporter, TestRunEndReason, Vitest } from 'vitest/node';

export default class SeedReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  onTestRunEnd(_modules: unknown, _errors: unknown, reason: TestRunEndReason) {
    const seed = this.vitest?.getSeed();
    if (reason !== 'failed' || seed == null) return;
    process.stdout.write(`\nThe files and tests ran in shuffled order, seed ${seed}: npx vitest run --sequence.seed=${seed} runs them in that order again.\n`);
  }
}
