;;; drive.el --- the test's hands in Emacs --batch (tests/test_editors.py): wait for
;;; the language server's diagnostics, optionally apply one code action, save the
;;; buffer, and leave what happened in a JSON file.  Same environment as drive.lua:
;;; E2E_OUT, E2E_KIND ("" for none: just save, with the set-up's fix on save; else save
;;; without it), E2E_TITLE, E2E_CODE.
(require 'json)
(require 'cl-lib)
(require 'flymake)
(defvar e2e-report (list (cons 'version emacs-version)))

(defun e2e-finish (&optional error)
  (when error (push (cons 'error error) e2e-report))
  (with-temp-file (getenv "E2E_OUT") (insert (json-encode e2e-report)))
  (kill-emacs 0))

(defun e2e-esc-diagnostics ()
  (cl-remove-if-not
   (lambda (d) (string-prefix-p "ESC" (or (e2e-code d) "")))
   (flymake-diagnostics)))

(defun e2e-code (diagnostic)
  (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data diagnostic)))))
    (and lsp (format "%s" (plist-get lsp :code)))))

(condition-case failure
    (progn
      (find-file (car command-line-args-left))
      (setq command-line-args-left nil)
      (run-hooks 'post-command-hook)  ; where eglot-ensure connects, after the command that opened the file
      (let ((deadline (+ (float-time) 60)))
        (while (and (null (e2e-esc-diagnostics)) (< (float-time) deadline))
          (accept-process-output nil 0.1)
          (when (bound-and-true-p flymake-mode) (flymake-start))))
      (let ((found (e2e-esc-diagnostics))
            (kind (getenv "E2E_KIND")))
        (unless found (e2e-finish "no ESC diagnostics within 60 s"))
        ;; each diagnostic as Emacs placed it: the text it covers, its line and character (code point)
        (push (cons 'diagnostics
                    (mapcar (lambda (d)
                              (let ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d)))
                                (list (cons 'code (e2e-code d))
                                      (cons 'type (symbol-name (flymake-diagnostic-type d)))
                                      (cons 'line (1- (line-number-at-pos beg)))
                                      (cons 'column (- beg (save-excursion (goto-char beg) (line-beginning-position))))
                                      (cons 'text (buffer-substring-no-properties beg end)))))
                            found))
              e2e-report)
        (unless (string= kind "")
          (let* ((chosen (car (sort (cl-remove-if-not (lambda (d) (equal (e2e-code d) (getenv "E2E_CODE")))
                                                      found)
                                    (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))
                 (beg (flymake-diagnostic-beg chosen))
                 (end (flymake-diagnostic-end chosen))
                 (actions (eglot-code-actions beg end kind))
                 (title (cl-loop for a in actions
                                 when (string-search (getenv "E2E_TITLE") (plist-get a :title))
                                 return (plist-get a :title))))
            (push (cons 'actions (mapcar (lambda (a) (plist-get a :title)) actions)) e2e-report)
            (unless title (e2e-finish (format "no %s action titled %s" kind (getenv "E2E_TITLE"))))
            (push (cons 'applied title) e2e-report)
            ;; Eglot's own command, with its menu answered by the title
            (let ((last-nonmenu-event ?\r))  ; as from the keyboard: a prompt, not a popup menu
              (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) title)))
                (eglot-code-actions beg end kind t))))))
      (if (string= (getenv "E2E_KIND") "")
          (progn (set-buffer-modified-p t)  ; as after an edit: save-buffer saves a modified buffer only
                 (save-buffer))
        (let ((before-save-hook nil))  ; after a code action, the file shows that action alone
          (save-buffer)))
      (e2e-finish))
  (error (e2e-finish (format "%S" failure))))
