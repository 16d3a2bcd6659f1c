import { DEV_PREMIUM_CALLS_PER_MONTH } from '../../../schemas/plans.ts';

/** Which part the page opens on: the dashboard (a live session) or the sign-in form. */
export type DashboardView = 'dashboard' | 'signin';

const PLACEHOLDERS = { view: '__VIEW__', billingUrl: '__BILLING_URL__', devPremiumLimit: '__DEV_PREMIUM_LIMIT__' } as const;

/**
 * The page's settings are attributes of <body> (an inline script would break the page's
 * Content-Security-Policy): where billing is fixed (the URL the plan-enforcement messages name)
 * and the dev plan's premium ceiling.
 */
const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export interface DashboardHtml {
  render(view: DashboardView): string;
}

export function dashboardHtml(template: string, dashboardUrl: string): DashboardHtml {
  for (const placeholder of Object.values(PLACEHOLDERS)) {
    if (!template.includes(placeholder)) throw new Error(`web/account/index.html lacks the ${placeholder} placeholder`);
  }
  const filled = template
    // Function replacers: a `$&` in the configured URL stays text.
    .replace(PLACEHOLDERS.billingUrl, () => escapeAttribute(`${dashboardUrl}/billing`))
    .replace(PLACEHOLDERS.devPremiumLimit, () => String(DEV_PREMIUM_CALLS_PER_MONTH));
  const pages: Record<DashboardView, string> = {
    dashboard: filled.replace(PLACEHOLDERS.view, 'dashboard'),
    signin: filled.replace(PLACEHOLDERS.view, 'signin'),
  };
  return { render: (view) => pages[view] };
}
