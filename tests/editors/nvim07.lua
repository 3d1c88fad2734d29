-- flake8-escapes' language server in Neovim 0.7 to 0.10, without plugins
-- (docs/editors.md; tests/test_editors.py runs Neovim headless with this file as its init.lua).
local fix_all = 'source.fixAll.flake8-escapes'
local client_id = nil

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'python',
  callback = function(args)
    if client_id == nil then
      client_id = vim.lsp.start_client({
        name = 'flake8-escapes',
        cmd = { 'flake8-escapes', 'server' },
        root_dir = vim.fn.getcwd(),
        -- optional: a severity per code prefix (default: warning, ESC304 error)
        init_options = { severity = { ESC4 = 'error' } },
      })
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})

-- Fix every safe escape problem when the buffer is written.
vim.api.nvim_create_autocmd('BufWritePre', {
  pattern = '*.py',
  callback = function(args)
    local client = client_id and vim.lsp.get_client_by_id(client_id)
    if not client then
      return
    end
    local params = vim.lsp.util.make_range_params()
    params.context = { only = { fix_all }, diagnostics = {} }
    local answer = client.request_sync('textDocument/codeAction', params, 3000, args.buf)
    for _, action in ipairs(answer and answer.result or {}) do
      if action.kind == fix_all and not action.edit then  -- planned when asked for
        local resolved = client.request_sync('codeAction/resolve', action, 3000, args.buf)
        action = resolved and resolved.result or action
      end
      if action.kind == fix_all and action.edit then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
      end
    end
  end,
})
