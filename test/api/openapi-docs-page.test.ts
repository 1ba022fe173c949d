/**
 * /docs in Chromium: swagger-ui renders the document's
 * operations under the page's Content-Security-Policy without a single
 * violation (before: its logo's inline <style> was refused, and the console
 * said so on every load).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { chromiumPresent, launchChromium, NO_CHROMIUM_REASON, runningInCi, type TestBrowser } from '../support/browser.js';

describe.skipIf(!chromiumPresent && !runningInCi)(`/docs in Chromium${chromiumPresent ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-docs-page-'));
  let app: FastifyInstance;
  let base: string;
  let browser: TestBrowser;
  beforeAll(async () => {
    app = await buildApp({ dataDir: dir, env: {} });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the operations with no CSP violation', async () => {
    const page = await browser.context.newPage();
    const violations: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
      if (m.text().startsWith('CSP violation')) violations.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.log(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.textContent?.replace(/\u200b/g, '')));
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/weather.php', '/api/v1/widget.php']));
    // Open widget.php: its responses (media types, examples) render too.
    await page.click('#operations-widget-get_api_v1_widget_php .opblock-summary');
    await page.waitForSelector('#operations-widget-get_api_v1_widget_php .responses-table', { timeout: 10_000 });
    await page.waitForTimeout(300);
    expect(violations).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy/.test(e))).toEqual([]);
    await page.close();
  }, 60_000);
});
