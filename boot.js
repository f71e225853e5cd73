// Starts the app. A file of its own (not Trunk's inline loader) so the page's
// Content-Security-Policy can forbid every inline script. The wasm is found beside this
// file (the release build serves both from its build folder, not from the page's address).
import init from './mcp-flow.js';

await init({ module_or_path: new URL('./mcp-flow_bg.wasm', import.meta.url) });
