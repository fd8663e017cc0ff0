// Headless Chromium for the browser tests and the README's screenshots: Debian's chromium driven
// by playwright-core (no browser download), loopback only.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why the browser tests are skipped here, or undefined when they run. CI (which installs
 * Chromium) never skips them: a missing browser fails there.
 */
export const noBrowser: string | undefined = existsSync(chromiumPath) || process.env.CI ? undefined : `${chromiumPath} is not installed (apt-get install -y chromium)`;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
  });
}
