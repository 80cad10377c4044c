-- Argo CD health of a dbaas.platform.dev/v1alpha1 DatabaseInstance (docs/gitops.md).
-- The apiserver decides one phase for every operator (docs/phases.md); this maps it to
-- Argo CD's health, with the instance's own message (its reason when it has none).
local hs = {}

local health = {
  Ready = "Healthy",
  Pending = "Progressing",
  Provisioning = "Progressing",
  Updating = "Progressing",
  Deleting = "Progressing",
  Degraded = "Degraded",
  Failed = "Degraded",
  Paused = "Suspended",
  Unknown = "Unknown",
}

local status = obj.status
if status == nil or status.phase == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the DatabaseInstance to report a phase"
  return hs
end

local message = status.message
if message == nil or message == "" then
  message = status.reason or ""
end

local mapped = health[status.phase]
if mapped == nil then
  -- a phase newer than this check: say so, never guess Healthy
  hs.status = "Unknown"
  hs.message = "Unrecognized phase " .. tostring(status.phase)
  if message ~= "" then
    hs.message = hs.message .. ": " .. message
  end
  return hs
end

hs.status = mapped
hs.message = message
return hs
