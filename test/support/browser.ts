/**
 * One Debian Chromium for a test file, driven by playwright-core, with a
 * fresh profile directory. When /usr/bin/chromium (or $CHROMIUM_PATH) is
 * absent, suites skip locally with the reason and fail under CI=true
 * (scripts/install-system-deps.sh installs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumPresent = existsSync(CHROMIUM_PATH);
export const runningInCi = process.env.CI === 'true';
export const NO_CHROMIUM_REASON = `${CHROMIUM_PATH} not found: install Debian's chromium (scripts/install-system-deps.sh) to run the browser tests`;

/** The flags of every test browser: headless, no sandbox (root in containers), nothing talking to the network on its own. */
export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
] as const;

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'mp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    viewport: { width: 1000, height: 900 },
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
