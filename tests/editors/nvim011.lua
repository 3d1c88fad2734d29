-- flake8-escapes' language server in Neovim 0.11 and later (vim.lsp.config, vim.lsp.enable)
-- (docs/editors.md; tests/test_editors.py runs it as its init.lua where Neovim is 0.11 or later).
local fix_all = 'source.fixAll.flake8-escapes'

vim.lsp.config('flake8_escapes', {
  cmd = { 'flake8-escapes', 'server' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.cfg', 'tox.ini', '.flake8', '.git' },
  -- optional: a severity per code prefix (default: warning, ESC304 error)
  init_options = { severity = { ESC4 = 'error' } },
})
vim.lsp.enable('flake8_escapes')

-- Fix every safe escape problem when the buffer is written.
vim.api.nvim_create_autocmd('BufWritePre', {
  pattern = '*.py',
  callback = function(args)
    for _, client in ipairs(vim.lsp.get_clients({ bufnr = args.buf, name = 'flake8_escapes' })) do
      local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
      params.context = { only = { fix_all }, diagnostics = {} }
      local answer = client:request_sync('textDocument/codeAction', params, 3000, args.buf)
      for _, action in ipairs(answer and answer.result or {}) do
        if action.kind == fix_all and not action.edit then  -- planned when asked for
          local resolved = client:request_sync('codeAction/resolve', action, 3000, args.buf)
          action = resolved and resolved.result or action
        end
        if action.kind == fix_all and action.edit then
          vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
        end
      end
    end
  end,
})
