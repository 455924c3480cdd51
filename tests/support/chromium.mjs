// Debian's Chromium, headless, for the browser tests: the flags keep it off the network
// (no background services) and working as root in a container (no sandbox, no /dev/shm).
import { chromium } from 'playwright-core';

const EXECUTABLE = process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** A playwright Browser on Debian's Chromium. */
export function launchChromium() {
  return chromium.launch({ executablePath: EXECUTABLE, headless: true, args: FLAGS });
}
