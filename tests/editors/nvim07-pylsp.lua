-- pylsp in Neovim 0.7 to 0.10, without plugins: its flake8 plugin reports the ESC codes,
-- flake8-escapes' pylsp plugin adds their code actions
-- (docs/editors.md; tests/test_editors.py runs Neovim headless with this file as its init.lua).
local client_id = nil

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'python',
  callback = function(args)
    if client_id == nil then
      client_id = vim.lsp.start_client({
        name = 'pylsp',
        cmd = { 'pylsp' },
        root_dir = vim.fn.getcwd(),
        settings = { pylsp = {
          configurationSources = { 'flake8' },
          plugins = {  -- flake8 runs pycodestyle, pyflakes and mccabe itself
            flake8 = { enabled = true },
            pycodestyle = { enabled = false }, pyflakes = { enabled = false }, mccabe = { enabled = false },
          },
        } },
        on_init = function(client)
          client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
        end,
      })
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})
