-- The test's hands in headless Neovim (tests/test_editors.py): wait for the
-- language server's diagnostics, optionally apply one code action, write the
-- buffer, and leave what happened in a JSON file.  Environment:
--   E2E_OUT     the JSON file to write
--   E2E_KIND    the kind of the code action to apply, then write without autocommands
--               ('' for none: just write, with the set-up's fix on save)
--   E2E_TITLE   a plain substring its title must contain ('' for any)
--   E2E_CODE    the code of the diagnostic to ask the code action for (its first in the file)
--   E2E_HOVER   a code: hover at its first diagnostic's start ('' for none)
local out = os.getenv('E2E_OUT')
local kind = os.getenv('E2E_KIND') or ''
local title = os.getenv('E2E_TITLE') or ''
local code = os.getenv('E2E_CODE') or ''
local hover = os.getenv('E2E_HOVER') or ''
local report = { version = vim.version(), diagnostics = {}, actions = {}, errors = {} }
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)

local function finish()
  local file = io.open(out, 'w')
  file:write(vim.fn.json_encode(report))
  file:close()
  vim.cmd('qall!')
end

local function fail(message)
  table.insert(report.errors, message)
  finish()
end

-- The raw diagnostics, as the server sent them (positions in its encoding).
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
local published = nil
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result and result.uri == uri then
    for _, diagnostic in ipairs(result.diagnostics) do
      if type(diagnostic.code) == 'string' and diagnostic.code:sub(1, 3) == 'ESC' then
        published = result.diagnostics
      end
    end
  end
  return publish(err, result, ctx, config)
end

local ok = vim.wait(60000, function() return published ~= nil end, 50)
if not ok then
  return fail('no ESC diagnostics within 60 s')
end
report.diagnostics = published
local client = (vim.lsp.get_clients or vim.lsp.get_active_clients)()[1]
report.offset_encoding = client.offset_encoding

local function request(method, params)
  if vim.fn.has('nvim-0.11') == 1 then  -- a method since 0.11
    return client:request_sync(method, params, 30000, buf)
  end
  return client.request_sync(method, params, 30000, buf)
end

local function first_of(wanted)  -- the first diagnostic of that code in the file
  local chosen = nil
  local function before(a, b)
    return a.line < b.line or (a.line == b.line and a.character < b.character)
  end
  for _, diagnostic in ipairs(published) do
    if diagnostic.code == wanted and (chosen == nil or before(diagnostic.range.start, chosen.range.start)) then
      chosen = diagnostic
    end
  end
  return chosen
end

if hover ~= '' then
  local at = first_of(hover)
  local answer = at and request('textDocument/hover', { textDocument = { uri = uri }, position = at.range.start })
  report.hover = answer and answer.result and answer.result.contents or vim.NIL
end

if kind ~= '' then
  local chosen = first_of(code)
  if chosen == nil then
    return fail('no diagnostic ' .. code)
  end
  local params = {
    textDocument = { uri = uri },
    range = chosen.range,
    context = { diagnostics = { chosen } },
  }
  local answer = request('textDocument/codeAction', params)
  if not answer or answer.err then
    return fail('codeAction failed: ' .. vim.inspect(answer))
  end
  local action = nil
  for _, candidate in ipairs(answer.result or {}) do
    table.insert(report.actions, { title = candidate.title, kind = candidate.kind })
    if action == nil and (candidate.kind or ''):sub(1, #kind) == kind
        and candidate.title:find(title, 1, true) then
      action = candidate
    end
  end
  if action == nil then
    return fail('no ' .. kind .. ' action titled ' .. title)
  end
  report.applied = action.title
  if not action.edit then  -- the server plans it when asked (codeAction/resolve)
    local resolved = request('codeAction/resolve', action)
    if not resolved or resolved.err or not resolved.result.edit then
      return fail('codeAction/resolve failed: ' .. vim.inspect(resolved))
    end
    action = resolved.result
  end
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
end
-- after a code action, the file shows that action alone: no fix-all on save
vim.cmd(kind ~= '' and 'noautocmd write' or 'write')
finish()
