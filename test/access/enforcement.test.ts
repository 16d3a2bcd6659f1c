import { describe, expect, it } from 'vitest';
import { blockChanged, nextBlock, overageCents, type AccountStanding, type Block } from '../../engines/access/enforcement.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';

const NOV = new Date('2026-11-24T21:00:00Z');
const LATER_NOV = new Date('2026-11-24T21:05:00Z');
const DEC = new Date('2026-12-01T00:00:00Z');

function standing(over: Partial<AccountStanding> & { billable?: number; dev?: number } = {}): AccountStanding {
  const { billable = 0, dev = 0, ...rest } = over;
  return { plan: 'hobby', calls: { billable, dev }, spendCap: 0, paymentFailed: false, block: null, ...rest };
}
const block = (state: Block['state'], since = NOV): Block => ({ state, since, month: utcMonth(since) });

describe('plan enforcement rules (volume 3)', () => {
  it('hobby: active at 9,999 billable calls, quota_exceeded at 10,000', () => {
    expect(nextBlock(standing({ billable: 9_999 }), NOV)).toBeNull();
    expect(nextBlock(standing({ billable: 10_000 }), NOV)).toEqual({ state: 'quota_exceeded', since: NOV, month: '2026-11' });
  });

  it('ignores dev-origin calls', () => {
    expect(nextBlock(standing({ billable: 9_999, dev: 1_000_000 }), NOV)).toBeNull();
    expect(nextBlock(standing({ plan: 'indie', billable: 0, dev: 10_000_000 }), NOV)).toBeNull();
  });

  it('keeps the since of a block that still holds', () => {
    const current = block('quota_exceeded');
    const next = nextBlock(standing({ billable: 12_000, block: current }), LATER_NOV);
    expect(next).toBe(current);
    expect(blockChanged(current, next)).toBe(false);
  });

  it('paid plan with spend cap 0 hard-stops at its included volume', () => {
    expect(nextBlock(standing({ plan: 'indie', billable: 249_999 }), NOV)).toBeNull();
    expect(nextBlock(standing({ plan: 'indie', billable: 250_000 }), NOV)?.state).toBe('spend_cap');
    expect(nextBlock(standing({ plan: 'growth', billable: 1_999_999 }), NOV)).toBeNull();
    expect(nextBlock(standing({ plan: 'growth', billable: 2_000_000 }), NOV)?.state).toBe('spend_cap');
  });

  it('spend_cap when the overage reaches the cap: indie 1.00 and growth 0.75 per 1,000 calls', () => {
    // indie, cap 5.00: 5,000 calls over = 5.00
    expect(nextBlock(standing({ plan: 'indie', spendCap: 5, billable: 254_999 }), NOV)).toBeNull();
    expect(nextBlock(standing({ plan: 'indie', spendCap: 5, billable: 255_000 }), NOV)?.state).toBe('spend_cap');
    // growth, cap 0.75: 1,000 calls over = 0.75 (no float slip: 0.75 * 1000 / 1000)
    expect(nextBlock(standing({ plan: 'growth', spendCap: 0.75, billable: 2_000_999 }), NOV)).toBeNull();
    expect(nextBlock(standing({ plan: 'growth', spendCap: 0.75, billable: 2_001_000 }), NOV)?.state).toBe('spend_cap');
    expect(overageCents('growth', 2_001_000)).toBe(75);
    expect(overageCents('indie', 100)).toBe(0);
    expect(overageCents('hobby', 50_000)).toBe(0);
  });

  it('cap raised so the overage is below it → active', () => {
    const current = block('spend_cap');
    expect(nextBlock(standing({ plan: 'indie', spendCap: 10, billable: 255_000, block: current }), LATER_NOV)).toBeNull();
    expect(nextBlock(standing({ plan: 'indie', spendCap: 5, billable: 255_000, block: current }), LATER_NOV)).toBe(current);
  });

  it('month rollover lifts quota_exceeded and spend_cap', () => {
    expect(nextBlock(standing({ billable: 0, block: block('quota_exceeded') }), DEC)).toBeNull();
    expect(nextBlock(standing({ plan: 'indie', billable: 0, block: block('spend_cap') }), DEC)).toBeNull();
  });

  it('a block of last month that holds again in the new month is a new block', () => {
    const next = nextBlock(standing({ billable: 10_000, block: block('quota_exceeded') }), DEC);
    expect(next).toEqual({ state: 'quota_exceeded', since: DEC, month: '2026-12' });
    expect(blockChanged(block('quota_exceeded'), next)).toBe(true);
  });

  it('payment failed on a paid plan → billing_required, also over a usage block, and across months', () => {
    expect(nextBlock(standing({ plan: 'indie', paymentFailed: true }), NOV)).toEqual({ state: 'billing_required', since: NOV, month: '2026-11' });
    expect(nextBlock(standing({ plan: 'growth', paymentFailed: true, billable: 3_000_000, block: block('spend_cap') }), NOV)?.state).toBe('billing_required');
    const current = block('billing_required');
    expect(nextBlock(standing({ plan: 'indie', paymentFailed: true, block: current }), DEC)).toBe(current);
  });

  it('payment ok → active (or the usage state, if the volume is used up)', () => {
    expect(nextBlock(standing({ plan: 'indie', block: block('billing_required') }), NOV)).toBeNull();
    expect(nextBlock(standing({ plan: 'indie', billable: 250_000, block: block('billing_required') }), NOV)?.state).toBe('spend_cap');
  });

  it('a payment failure means nothing on hobby, but a move to hobby does not lift billing_required', () => {
    expect(nextBlock(standing({ paymentFailed: true }), NOV)).toBeNull();
    const current = block('billing_required');
    expect(nextBlock(standing({ plan: 'hobby', paymentFailed: true, block: current }), LATER_NOV)).toBe(current);
  });

  it('a key moving between plans takes the new plan\'s volume', () => {
    // hobby at quota → upgrade to indie: active again (the quota_exceeded message says "or upgrade")
    expect(nextBlock(standing({ plan: 'indie', billable: 10_000, block: block('quota_exceeded') }), LATER_NOV)).toBeNull();
    // indie with 20,000 calls → downgrade to hobby: quota_exceeded
    expect(nextBlock(standing({ plan: 'hobby', billable: 20_000 }), NOV)?.state).toBe('quota_exceeded');
    // growth with 300,000 calls → indie at cap 0: spend_cap; with cap 50 (overage 50.00): still spend_cap; cap 51: active
    expect(nextBlock(standing({ plan: 'indie', billable: 300_000 }), NOV)?.state).toBe('spend_cap');
    expect(nextBlock(standing({ plan: 'indie', billable: 300_000, spendCap: 50 }), NOV)?.state).toBe('spend_cap');
    expect(nextBlock(standing({ plan: 'indie', billable: 300_000, spendCap: 51 }), NOV)).toBeNull();
    // a spend_cap block turning into quota_exceeded on a move to hobby is a change of state
    const next = nextBlock(standing({ plan: 'hobby', billable: 300_000, block: block('spend_cap') }), LATER_NOV);
    expect(next).toEqual({ state: 'quota_exceeded', since: LATER_NOV, month: '2026-11' });
  });

  it('months are UTC', () => {
    expect(utcMonth(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(utcMonth(new Date('2026-12-01T00:00:00-05:00'))).toBe('2026-12');
  });
});
