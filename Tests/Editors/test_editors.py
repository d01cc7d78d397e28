"""The editor recipes of docs/editors.md run as written: the Neovim (Lua) and Emacs (elisp) code blocks are cut
from the page itself, so the tests and the page cannot drift apart.

- Each recipe's "Use" block runs against the real host (the built-in pull-down animator from the binary's own
  folder, the binary found as `transition-host` on PATH, as the page assumes): the transition ends with its
  didEnd, and stopping the host ends it with status 0.
- The restart chain: started with a program that exits at once (`/bin/false`), the recipe restarts it four times
  and then reports five crashes in 180 s, in every one of many runs (Emacs's chain used to stall when the process
  died before its sentinel was in place). Runs go several at a time, which also varies the timing.

Run: TRANSITION_HOST_BIN=.build/debug/transition-host python3 -m unittest discover -s Tests/Editors -v
Needs Debian's `neovim` (0.7) and `emacs-nox` (28); `make test-editors` installs them when missing. A missing
editor makes its tests report themselves skipped.
"""

import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EDITORS_MD = os.path.join(ROOT, "docs", "editors.md")

#: How many restart-chain runs each editor gets, and how many go at once.
CHAIN_RUNS = 16
CHAIN_PARALLEL = 4
#: Seconds one run may take: the chain itself takes 4 × 0.5 s of restart delays.
RUN_TIMEOUT = 60


def host_binary():
    path = os.environ.get("TRANSITION_HOST_BIN") or os.path.join(ROOT, ".build", "debug", "transition-host")
    if not os.path.isfile(path):
        raise unittest.SkipTest(f"no transition-host binary at {path}; build it or set TRANSITION_HOST_BIN")
    return os.path.abspath(path)


def code_blocks(language):
    """The fenced blocks of docs/editors.md marked `language`, in page order."""
    with open(EDITORS_MD, encoding="utf-8") as handle:
        page = handle.read()
    return re.findall(r"^```" + re.escape(language) + r"\n(.*?)^```", page, re.S | re.M)


def environment():
    """The environment of an editor run: the host's folder first on PATH, so `transition-host` is the one built."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(host_binary()) + os.pathsep + env.get("PATH", "")
    return env


def run_all(commands, parallel):
    """Runs `commands` (argument lists), `parallel` at a time; returns (status, stdout, stderr) of each, in order."""
    results = [None] * len(commands)
    running = []
    pending = list(enumerate(commands))
    while pending or running:
        while pending and len(running) < parallel:
            index, command = pending.pop(0)
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment()
            )
            running.append((index, process, time.monotonic()))
        index, process, started = running.pop(0)
        try:
            out, err = process.communicate(timeout=max(1.0, RUN_TIMEOUT - (time.monotonic() - started)))
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            err += b"\n(killed: the run took longer than %d s)" % RUN_TIMEOUT
        results[index] = (process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
    return results


def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        return [line for line in handle.read().split("\n") if line]


# MARK: - Emacs


EMACS_USE_DRIVER = r"""
(defvar test-log nil "What the run printed with `message', oldest first once written out.")
(advice-add 'message :before
            (lambda (format-string &rest args)
              (when format-string (push (apply #'format-message format-string args) test-log))))
(load "%(use)s" nil t)
(condition-case failure
    (progn (transition-host-request :transition/update '(:transition "t1" :percent 0.5))
           (push "update after the end: no error" test-log))
  (jsonrpc-error
   (push (format "update after the end: jsonrpc-error %%S" (alist-get 'jsonrpc-error-code (cdr failure))) test-log)))
(let ((process (jsonrpc--process transition-host--connection)))
  (transition-host-stop)
  (push (format "host %%s %%s" (process-status process) (process-exit-status process)) test-log))
(with-temp-file "%(out)s" (insert (mapconcat #'identity (reverse test-log) "\n")))
"""

EMACS_CHAIN_DRIVER = r"""
(defvar test-log nil)
(advice-add 'message :before
            (lambda (format-string &rest args)
              (when format-string (push (apply #'format-message format-string args) test-log))))
(setq transition-host-program "/bin/false")
(transition-host-start)
(let ((deadline (+ (float-time) 20)))
  (while (and (not (cl-some (lambda (line) (string-match-p "not restarting" line)) test-log))
              (< (float-time) deadline))
    (accept-process-output nil 0.05)))
(with-temp-file "%(out)s" (insert (mapconcat #'identity (reverse test-log) "\n")))
"""


class EmacsRecipeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.emacs = shutil.which("emacs")
        if cls.emacs is None:
            raise unittest.SkipTest("emacs is not installed (make test-editors installs emacs-nox)")
        host_binary()
        blocks = code_blocks("elisp")
        if len(blocks) != 2:
            raise AssertionError(f"docs/editors.md should have 2 elisp blocks (recipe, use), has {len(blocks)}")
        cls.folder = tempfile.mkdtemp(prefix="editors-emacs-")
        cls.recipe = os.path.join(cls.folder, "transition-host.el")
        cls.use = os.path.join(cls.folder, "use.el")
        with open(cls.recipe, "w", encoding="utf-8") as handle:
            handle.write(blocks[0])
        with open(cls.use, "w", encoding="utf-8") as handle:
            handle.write(blocks[1])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def command(self, driver, out):
        path = out + ".el"
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(driver % {"use": self.use, "out": out})
        # The recipe's folder on load-path: the use block says (require 'transition-host).
        return [self.emacs, "--batch", "-Q", "-L", self.folder, "-l", self.recipe, "-l", path]

    def test_use_block_runs_a_transition_against_the_host(self):
        out = os.path.join(self.folder, "use.out")
        [(status, _, err)] = run_all([self.command(EMACS_USE_DRIVER, out)], 1)
        self.assertEqual(status, 0, err)
        log = read_lines(out)
        self.assertIn("t1 ended: completed t", log, err)
        self.assertIn("update after the end: jsonrpc-error 2006", log, err)
        self.assertIn("host exit 0", log, err)

    def test_restart_chain_survives_a_program_that_exits_at_once(self):
        outs = [os.path.join(self.folder, f"chain-{run}.out") for run in range(CHAIN_RUNS)]
        results = run_all([self.command(EMACS_CHAIN_DRIVER, out) for out in outs], CHAIN_PARALLEL)
        for run, (out, (status, _, err)) in enumerate(zip(outs, results)):
            with self.subTest(run=run):
                self.assertEqual(status, 0, err)
                chain = [line for line in read_lines(out) if line.startswith("transition-host ")]
                self.assertEqual(
                    chain,
                    ["transition-host exited; restarting"] * 4
                    + ["transition-host crashed 5 times in 180 s; not restarting"],
                    err,
                )


# MARK: - Neovim


NVIM_USE_DRIVER = r"""
local log = {}
local function note(text) table.insert(log, text) end
_G.print = function(...)
  local parts = {}
  for i = 1, select('#', ...) do parts[#parts + 1] = tostring(select(i, ...)) end
  note(table.concat(parts, ' '))
end
vim.notify = function(message) note('notify: ' .. message) end
-- Watch the recipe's job from outside: how many frame lines it reads, and how it exits.
local frames, exited = 0, nil
local jobstart = vim.fn.jobstart
vim.fn.jobstart = function(cmd, opts)
  local on_stdout, on_exit = opts.on_stdout, opts.on_exit
  opts.on_stdout = function(job, data, event)
    for _, line in ipairs(data) do
      if line:find('"method":"transition/frame"', 1, true) then frames = frames + 1 end
    end
    return on_stdout(job, data, event)
  end
  opts.on_exit = function(job, code, event)
    exited = code
    return on_exit(job, code, event)
  end
  return jobstart(cmd, opts)
end
dofile('%(use)s')
vim.wait(10000, function()
  for _, line in ipairs(log) do if line:find('completed', 1, true) then return true end end
  return false
end, 20)
note('frames ' .. (frames > 0 and 'streamed' or 'none'))
require('transition_host').stop()
vim.wait(10000, function() return exited ~= nil end, 20)
note('host exit ' .. tostring(exited))
local file = io.open('%(out)s', 'w')
file:write(table.concat(log, '\n'))
file:close()
vim.cmd('qa!')
"""

NVIM_CHAIN_DRIVER = r"""
local log = {}
vim.notify = function(message) table.insert(log, message) end
require('transition_host').start({ cmd = { '/bin/false' } })
vim.wait(20000, function()
  for _, line in ipairs(log) do if line:find('not restarting', 1, true) then return true end end
  return false
end, 20)
local file = io.open('%(out)s', 'w')
file:write(table.concat(log, '\n'))
file:close()
vim.cmd('qa!')
"""


class NeovimRecipeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.nvim = shutil.which("nvim")
        if cls.nvim is None:
            raise unittest.SkipTest("nvim is not installed (make test-editors installs neovim)")
        host_binary()
        blocks = code_blocks("lua")
        if len(blocks) != 2:
            raise AssertionError(f"docs/editors.md should have 2 lua blocks (module, use), has {len(blocks)}")
        cls.folder = tempfile.mkdtemp(prefix="editors-nvim-")
        os.makedirs(os.path.join(cls.folder, "lua"))
        with open(os.path.join(cls.folder, "lua", "transition_host.lua"), "w", encoding="utf-8") as handle:
            handle.write(blocks[0])
        cls.use = os.path.join(cls.folder, "use.lua")
        with open(cls.use, "w", encoding="utf-8") as handle:
            handle.write(blocks[1])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def command(self, driver, out):
        path = out + ".lua"
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(driver % {"use": self.use, "out": out})
        # The module's folder on the runtimepath, as the page says ("save as lua/transition_host.lua on your
        # runtimepath").
        return [self.nvim, "--headless", "-u", "NONE", "-i", "NONE", "--cmd", "set rtp^=" + self.folder,
                "-c", "luafile " + path]

    def test_use_block_runs_a_transition_against_the_host(self):
        out = os.path.join(self.folder, "use.out")
        [(status, _, err)] = run_all([self.command(NVIM_USE_DRIVER, out)], 1)
        self.assertEqual(status, 0, err)
        log = read_lines(out)
        self.assertIn("t1 completed", log, err)
        self.assertIn("frames streamed", log, err)
        self.assertIn("host exit 0", log, err)

    def test_restart_chain_survives_a_program_that_exits_at_once(self):
        outs = [os.path.join(self.folder, f"chain-{run}.out") for run in range(CHAIN_RUNS)]
        results = run_all([self.command(NVIM_CHAIN_DRIVER, out) for out in outs], CHAIN_PARALLEL)
        for run, (out, (status, _, err)) in enumerate(zip(outs, results)):
            with self.subTest(run=run):
                self.assertEqual(status, 0, err)
                self.assertEqual(
                    read_lines(out),
                    ["transition-host exited with 1; restarting"] * 4
                    + ["transition-host crashed 5 times in 180 s; not restarting"],
                    err,
                )


if __name__ == "__main__":
    unittest.main()
