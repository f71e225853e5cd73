// Debian's Chromium through playwright-core, shared by the e2e suite and the page benchmark.
// playwright-core is resolved normally, else from the project's tools folder ($MCP_FLOW_TOOLS,
// default ~/.cache/mcp-flow) where `cargo xtask test` installs it. No browser is downloaded.
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch {
    const tools = process.env.MCP_FLOW_TOOLS ?? join(homedir(), '.cache/mcp-flow');
    return createRequire(join(tools, 'npm/package.json'))('playwright-core');
  }
}

export async function launchChromium() {
  const { chromium } = await loadPlaywright();
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
      '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
  });
}
