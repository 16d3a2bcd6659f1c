/** ROUTING_WORKERS and ROUTING_TIME_BUDGET_MS: defaults for two cores, checked once at startup. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.ts';

describe('routing worker settings', () => {
  it('default to two threads and a 10 s budget', () => {
    expect(loadConfig({})).toMatchObject({ routingWorkers: 2, routingTimeBudgetMs: 10_000 });
    expect(loadConfig({ ROUTING_WORKERS: '4', ROUTING_TIME_BUDGET_MS: '2500' })).toMatchObject({ routingWorkers: 4, routingTimeBudgetMs: 2500 });
  });

  it.each([
    ['ROUTING_WORKERS', '0'], ['ROUTING_WORKERS', '65'], ['ROUTING_WORKERS', '1.5'], ['ROUTING_TIME_BUDGET_MS', '0'], ['ROUTING_TIME_BUDGET_MS', 'soon'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });
});
