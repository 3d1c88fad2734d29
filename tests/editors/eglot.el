;;; eglot.el --- flake8-escapes' language server in Emacs 28+ with Eglot
;;; (docs/editors.md; tests/test_editors.py loads this file in Emacs --batch).
(require 'eglot)
;; :initializationOptions is optional: a severity per code prefix (default: warning, ESC304 error)
(add-to-list 'eglot-server-programs
             '(python-mode "flake8-escapes" "server" :initializationOptions (:severity (:ESC4 "error"))))
(add-hook 'python-mode-hook #'eglot-ensure)

(defun flake8-escapes-fix-all ()
  "Fix every safe escape problem of the buffer (source.fixAll.flake8-escapes)."
  (interactive)
  (when (and (eglot-managed-p)
             (eglot-code-actions (point-min) (point-max) "source.fixAll.flake8-escapes"))
    (eglot-code-actions (point-min) (point-max) "source.fixAll.flake8-escapes" t)))
(add-hook 'before-save-hook #'flake8-escapes-fix-all)
