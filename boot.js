// Starts the app. A file of its own (not Trunk's inline loader) so the page's
// Content-Security-Policy can forbid every inline script.
import init from './mcp-flow.js';

await init({ module_or_path: './mcp-flow_bg.wasm' });
