-- wrk script for `cargo xtask bench-ceiling`: get_weather for Tokyo, back to back.
-- Arguments after `--`: "modern" (2026-07-28: no session, `_meta` and Mcp-* headers on each call)
-- or "legacy" followed by the 2025-11-25 session ids to spread the calls over.
-- Every answer is checked for the tool's text; done() prints one machine-readable line.

local threads = {}
local requests = {}
wrong = 0

local function call_body(meta)
  return '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather",'
    .. '"arguments":{"location":"Tokyo"}' .. meta .. '}}'
end

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local headers = {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
  }
  if args[1] == "modern" then
    headers["MCP-Protocol-Version"] = "2026-07-28"
    headers["Mcp-Method"] = "tools/call"
    headers["Mcp-Name"] = "get_weather"
    local meta = ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
      .. '"io.modelcontextprotocol/clientCapabilities":{},'
      .. '"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"4"}}'
    requests[1] = wrk.format("POST", nil, headers, call_body(meta))
  else
    headers["MCP-Protocol-Version"] = "2025-11-25"
    for i = 2, #args do
      headers["Mcp-Session-Id"] = args[i]
      requests[#requests + 1] = wrk.format("POST", nil, headers, call_body(""))
    end
  end
  if #requests == 0 then
    error("no session ids for the legacy era")
  end
end

local next_request = 0
function request()
  next_request = next_request % #requests + 1
  return requests[next_request]
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"text":"Sunny"', 1, true) then
    wrong = wrong + 1
  end
end

function done(summary, latency, requests)
  local bad = 0
  for _, t in ipairs(threads) do
    bad = bad + (t:get("wrong") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    "wrk: requests=%d seconds=%.3f wrong=%d errors=%d p50_ms=%.3f p99_ms=%.3f\n",
    summary.requests, summary.duration / 1e6, bad,
    e.connect + e.read + e.write + e.timeout + e.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
