-- The HTTP benchmark's load for wrk (one thread): the same two calls as the Node warm-up driver in
-- http-bench.ts. Customers take turns; each places a resting limit buy, or, once it has `cap` open
-- orders, cancels its oldest. The customers, their tokens and the orders the warm-up left open come
-- from a file (init's first argument: one line per customer, "token id id ..."). A request carries
-- x-request-id "bench-<customer>-<n>", which both servers echo, so an answer tells whose order it placed.
-- done() prints one line of JSON: wrk's counts, latency percentiles and histogram (µs) with this
-- script's own counts.
-- Run by http-bench.ts: wrk -t1 -cN -dS --timeout 10s -s bench/http-load.lua URL -- FILE CAP PIN PRICES

local customers = {}
local count = 0
local turn = 0
local serial = 0
local cap, pin, prices
local price_turn = 0
-- Outcomes seen by this thread (read by done() through thread:get).
places, cancels, failures = 0, 0, 0
first_failure = ""

function init(args)
  cap = tonumber(args[2])
  pin = args[3]
  prices = {}
  for p in string.gmatch(args[4], "[^,]+") do prices[#prices + 1] = p end
  for line in io.lines(args[1]) do
    local c = { open = {}, head = 1, tail = 0, in_flight = 0 }
    for word in string.gmatch(line, "%S+") do
      if c.token == nil then
        c.token = word
      else
        c.tail = c.tail + 1
        c.open[c.tail] = tonumber(word)
      end
    end
    count = count + 1
    customers[count] = c
  end
end

function request()
  turn = turn % count + 1
  serial = serial + 1
  local c = customers[turn]
  local open = c.tail - c.head + 1
  if open > 0 and open + c.in_flight >= cap then
    local order = c.open[c.head]
    c.open[c.head] = nil
    c.head = c.head + 1
    return wrk.format("GET", "/ipor-api/stock/order/cancel?id=" .. order,
      { token = c.token, ["x-request-id"] = "bench-" .. turn .. "-" .. serial .. "-c" })
  end
  c.in_flight = c.in_flight + 1
  price_turn = price_turn % #prices + 1
  local body = '{"symbol":"NSE:RELIANCE","orderType":"limit","price":"' .. prices[price_turn] ..
    '","quantity":"' .. (serial % 3 + 1) .. '","password":"' .. pin .. '"}'
  return wrk.format("POST", "/ipor-api/stock/order/buy", {
    token = c.token,
    ["x-request-id"] = "bench-" .. turn .. "-" .. serial .. "-p",
    ["content-type"] = "application/json",
  }, body)
end

local function fail(what)
  failures = failures + 1
  if first_failure == "" then first_failure = what end
end

function response(status, headers, body)
  local who, kind = string.match(headers["x-request-id"] or "", "^bench%-(%d+)%-%d+%-(%a)$")
  local ok = status == 200 and string.find(body, '"code":0', 1, true) ~= nil
  if not ok then fail(status .. " " .. string.sub(body, 1, 200)) end
  if who == nil then
    fail("an answer without the request's x-request-id")
    return
  end
  if kind == "c" then
    cancels = cancels + 1
    return
  end
  places = places + 1
  local c = customers[tonumber(who)]
  c.in_flight = c.in_flight - 1
  -- A buy ~10% under the price rests ("pending"); its id is the first "id" of the answer.
  if ok and string.find(body, '"status":"pending"', 1, true) ~= nil then
    local order = tonumber(string.match(body, '"id":(%d+)'))
    if order ~= nil then
      c.tail = c.tail + 1
      c.open[c.tail] = order
    end
  end
end

local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
end

function done(summary, latency, requests)
  local p, c, f, first = 0, 0, 0, ""
  for _, t in ipairs(threads) do
    p = p + t:get("places")
    c = c + t:get("cancels")
    f = f + t:get("failures")
    if first == "" then first = t:get("first_failure") end
  end
  local e = summary.errors
  -- Every recorded latency (µs) with its count, so that runs can be merged into exact percentiles.
  local hist = {}
  for i = 1, #latency do
    local value, n = latency(i)
    hist[#hist + 1] = string.format("%d:%d", value, n)
  end
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"places":%d,"cancels":%d,"failures":%d,' ..
    '"socketErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d,"p999Us":%d,"maxUs":%d,' ..
    '"hist":"%s","firstFailure":"%s"}\n',
    summary.requests, summary.duration, p, c, f, e.connect + e.read + e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max,
    table.concat(hist, ","), (string.gsub(first, '[%c"\\]', " "))))
end
