;;; eglot-pylsp.el --- pylsp in Emacs 28+ with Eglot: its flake8 plugin reports the ESC codes,
;;; flake8-escapes' pylsp plugin adds their code actions
;;; (docs/editors.md; tests/test_editors.py loads this file in Emacs --batch).
(require 'eglot)
(add-hook 'python-mode-hook #'eglot-ensure)  ; Eglot runs pylsp for Python by default
(setq-default eglot-workspace-configuration
              '(:pylsp (:configurationSources ["flake8"]
                        :plugins (:flake8 (:enabled t)  ; flake8 runs pycodestyle, pyflakes and mccabe itself
                                  :pycodestyle (:enabled :json-false)
                                  :pyflakes (:enabled :json-false)
                                  :mccabe (:enabled :json-false)))))
