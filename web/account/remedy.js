// What the account's keys are refused for, and what to do about it. The codes are those the API
// answers the keys with (429 for the plan-enforcement blocks, 403 for the dev plan's premium
// ceiling); the billing URL is where the API's own messages send people.
import { formatCount, formatInstant, formatMoney, nextMonthStart } from './format.js';

const BLOCKS = {
  quota_exceeded: (me) => ({
    title: 'Monthly quota reached: your keys are refused (429 quota_exceeded)',
    remedy: `The ${me.plan} plan includes ${formatCount(me.usage.included_calls)} calls a month and this month's are used. ` +
      'Upgrade to a paid plan, or raise your spend cap, to go on now; otherwise the block lifts by itself at the start ' +
      `of next month (${nextMonthStart(me.usage.month)} 00:00 UTC, within five minutes).`,
  }),
  spend_cap: (me) => ({
    title: 'Spend cap reached: your keys are refused (429 spend_cap)',
    remedy: `This month's overage (${formatMoney(me.usage.overage)}) reached your spend cap of ${formatMoney(me.spend_cap)}. ` +
      'Raise the spend cap: your keys work again within five minutes of the change. Otherwise the block lifts by itself ' +
      `at the start of next month (${nextMonthStart(me.usage.month)} 00:00 UTC, within five minutes).`,
  }),
  billing_required: (me) => ({
    title: 'Payment failed: your keys are refused (429 billing_required)',
    remedy: `The last payment for your plan failed${me.payment_failed_at ? ` (${formatInstant(me.payment_failed_at)})` : ''}. ` +
      'Update your payment method: your keys work again once the payment is retried successfully. Waiting does not clear this block.',
  }),
};

/**
 * Every refusal the account's keys meet now: {code, title, since, remedy, link}. `settings` are
 * the page's: billingUrl and devPremiumLimit.
 */
export function noticesOf(me, settings) {
  const notices = [];
  const block = BLOCKS[me.state];
  if (block) notices.push({ code: me.state, since: me.blocked_since, link: settings.billingUrl, ...block(me) });
  if (me.plan === 'dev' && me.usage.premium_calls >= settings.devPremiumLimit) {
    notices.push({
      code: 'usage_limit_reached',
      title: 'Premium calls used up: premium requests are refused (403 usage_limit_reached)',
      since: null,
      remedy: `The dev plan allows ${formatCount(settings.devPremiumLimit)} premium calls a month; core calls go on. ` +
        `Subscribe to a paid plan to go on now; otherwise premium calls work again on ${nextMonthStart(me.usage.month)}.`,
      link: settings.billingUrl,
    });
  }
  return notices;
}
