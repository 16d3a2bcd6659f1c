import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium; .ci/run installs it. Never `npx playwright install` (no network for browsers). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * ../shared/NOTES.md's flags. WebGL: this Chromium falls back to SwiftShader (ANGLE on Vulkan)
 * by itself under --disable-gpu; --enable-unsafe-swiftshader says so explicitly, so no
 * "automatic fallback to software WebGL" deprecation lands in the console.
 */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--no-first-run', '--disable-sync', '--disable-quic', '--enable-unsafe-swiftshader',
];

export interface BrowserSession {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile directory (removed at close); a clear error when it is not installed. */
export async function launchChromium(viewport = { width: 1024, height: 768 }): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the map-page tests drive Debian's chromium with playwright-core. ` +
      'Install it with `apt-get update && apt-get install -y chromium` (.ci/run does).');
  }
  const profile = await mkdtemp(path.join(os.tmpdir(), 'canmap-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** What went wrong while a page ran: requests to `origin` that failed or answered ≥ 400, console errors, uncaught errors. */
export interface PageWatch {
  /** `<status> <path>` or `failed <path>: <reason>`; aborted requests (MapLibre cancels tiles it no longer needs) are not failures. */
  failures: string[];
  /** Console errors as `<text> @ <path of the resource or script>`. */
  consoleErrors: string[];
  pageErrors: string[];
  /** Every answered request to `origin`: path and status. */
  answered: { path: string; status: number }[];
}

export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { failures: [], consoleErrors: [], pageErrors: [], answered: [] };
  const pathOf = (url: string) => (url.startsWith(origin) ? new URL(url).pathname : null);
  page.on('response', (response) => {
    const at = pathOf(response.url());
    if (at === null) return;
    watch.answered.push({ path: at, status: response.status() });
    if (response.status() >= 400) watch.failures.push(`${response.status()} ${at}`);
  });
  page.on('requestfailed', (request) => {
    const at = pathOf(request.url());
    const reason = request.failure()?.errorText ?? 'unknown';
    if (at !== null && reason !== 'net::ERR_ABORTED') watch.failures.push(`failed ${at}: ${reason}`);
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const url = message.location().url;
    watch.consoleErrors.push(`${message.text()} @ ${pathOf(url) ?? url}`);
  });
  page.on('pageerror', (error) => watch.pageErrors.push(error.message));
  return watch;
}
