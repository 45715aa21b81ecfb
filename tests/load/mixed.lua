-- wrk scenario for `make loadtest`: 80% calculators, 15% encounter segments, 5% simulation submissions.
-- Usage: wrk -t1 -c16 -d30s --latency -s tests/load/mixed.lua http://127.0.0.1:PORT -- ENCOUNTERS_FILE
-- ENCOUNTERS_FILE holds one "id token" pair per line (pre-created encounters). Segments go round-robin
-- over them, so with more encounters than connections no two in-flight writes share an encounter.
local calculators = {
  {"/v1/tactical/to-hit", '{"av": 60, "dv": 45}'},
  {"/v1/tactical/to-hit", '{"av": 21, "ranged": {"weapon": "bow", "distance": 85}}'},
  {"/v1/tactical/damage", '{"attacker": {"strength": 14, "modified_sta": 15, "coordination": 12}, '
    .. '"weapon": {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"}, '
    .. '"target": {"modified_sta": 14, "condition": 13, "pain_resistance": 12, '
    .. '"armor": [{"type": "doublemail"}, {"type": "padded"}]}}'},
  {"/v1/tactical/pulse", '{"items": [{"mph": 13}, {"mph": 4.5}, {"mph": 1, "scale": "5mm"}]}'},
  {"/v1/tactical/range", '{"weapon": "bow", "distance": 85}'},
}
local segment_body = '{"declarations": [{"combatant": "knight", "action": "attack", "target": "bandit-1", '
  .. '"weapon": 0}, {"combatant": "bandit-1", "action": "attack", "target": "knight", "weapon": 0}]}'
local simulation_body = '{"trials": 100, "matchup": {"sides": [{"name": "a", "combatants": [{"id": "a", '
  .. '"attributes": {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 11}, '
  .. '"mods": {"AWA": 1, "HRT": 0}, "weapons": [{"name": "sword", "av": 60, "parry": 35, "size": 6, '
  .. '"weight_class": 2}], "dodge_dv": 20, "armor": [{"type": "padded", "dr": 10}]}]}, '
  .. '{"name": "b", "combatants": [{"id": "b", "attributes": {"STR": 13, "mSTA": 12, "CND": 12, '
  .. '"AGL": 12, "HRT": 11, "P-RES": 11}, "mods": {"AWA": 1, "HRT": 0}, "weapons": [{"name": "sword", '
  .. '"av": 50, "parry": 35, "size": 6, "weight_class": 2}], "dodge_dv": 20, '
  .. '"armor": [{"type": "padded", "dr": 10}]}]}]}}'

local encounters = {}
local n, next_encounter = 0, 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do
    local id, token = line:match("^(%S+)%s+(%S+)$")
    if id then table.insert(encounters, {id, token}) end
  end
  ok, conflicts, client_errors, server_errors, other = 0, 0, 0, 0, 0
  kind_calc, kind_segment, kind_sim = 0, 0, 0
  first_error = ""
end

function request()
  n = n + 1
  local slot = n % 20  -- 16 of 20 calculators, 3 of 20 segments, 1 of 20 simulations
  if slot < 16 then
    kind_calc = kind_calc + 1
    local c = calculators[(n % #calculators) + 1]
    return wrk.format("POST", c[1], {["Content-Type"] = "application/json"}, c[2])
  elseif slot < 19 then
    kind_segment = kind_segment + 1
    next_encounter = (next_encounter % #encounters) + 1
    local e = encounters[next_encounter]
    return wrk.format("POST", "/v1/encounters/" .. e[1] .. "/segments",
      {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. e[2]}, segment_body)
  end
  kind_sim = kind_sim + 1
  return wrk.format("POST", "/v1/simulations", {["Content-Type"] = "application/json"}, simulation_body)
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1
  elseif status == 409 then conflicts = conflicts + 1
  elseif status >= 500 then server_errors = server_errors + 1
  elseif status >= 400 then client_errors = client_errors + 1
  else other = other + 1 end
  if (status >= 300 and status ~= 409) and first_error == "" then first_error = status .. " " .. body:sub(1, 300) end
end

function done(summary, latency, requests)
  local totals = {ok = 0, conflicts = 0, client_errors = 0, server_errors = 0, other = 0,
                  kind_calc = 0, kind_segment = 0, kind_sim = 0}
  for _, thread in ipairs(threads) do
    for key, _ in pairs(totals) do totals[key] = totals[key] + (thread:get(key) or 0) end
  end
  local parts = {}
  for key, value in pairs(totals) do table.insert(parts, string.format('"%s": %d', key, value)) end
  io.write("LOADTEST-COUNTS {" .. table.concat(parts, ", ") .. "}\n")
  for _, thread in ipairs(threads) do
    local sample = thread:get("first_error")
    if sample and sample ~= "" then io.write("LOADTEST-FIRST-ERROR " .. sample .. "\n") end
  end
end
