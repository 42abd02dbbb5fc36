"""Run many scripts, each as a fresh Python process would, after one import of JAX.

    python forked_runs.py BOOTSTRAP      (then, one per line on standard input: JOBS.json)

A server: ``helpers.run_forked`` keeps one per test worker and environment, for the worker's
life, and sends it the path of each batch.  ``JOBS.json``: ``[{"script", "stdout", "stderr",
"report"}, ...]`` (paths).  With ``report`` a script runs as ``python BOOTSTRAP SCRIPT`` runs it,
writing the bootstrap's report there; without, as ``python SCRIPT``; in the script's directory,
its output going to the two files, its standard input empty.  Each runs in a process of its
own: a child forked from this one, so with its own ``__main__``, counters, JAX caches and JAX
config, and the interpreter's exit status and exit steps (thread joins, atexit handlers, flushed
output).  When a batch has ended this prints its children's exit codes, as a JSON list in the
jobs' order, on one line.  Two children run at a time (one per core of the machines the suite
is sized for).

What the children skip: the import of JAX, about 1.6 CPU-seconds, more than most fixtures take
to run (once per server, not per batch: about 20 batches a run); the import of the model
libraries the scripts import (``PRELOADED``: flax 0.6 CPU-seconds, equinox 0.2), done here
once when a batch's script imports them; and the teardown of every module at exit, which in a
forked child costs about 0.3 CPU-seconds: it touches, and so copies page by page, the memory
the child shares with this process (so does a garbage collection: the objects made before the
fork are frozen out of the children's collections).

JAX reads its environment variables (``JAX_PLATFORMS``, ``JAX_DISABLE_JIT``) when imported:
this process gets the children's environment (a server per environment).  Forking after
``import jax`` is safe because importing JAX (or a preloaded library) makes no backend and
starts no thread (each child makes its own backend at its first computation); this process
checks both before every fork.  A child that runs past ``TIMEOUT_SECONDS`` is killed by SIGALRM.

Test code, not jitlint's: the bootstrap is loaded from the copy under test.  This file's own
frame lies below every child's, so the bootstrap's reports name it in their compile stacks:
``helpers.run_forked`` drops it.
"""

import atexit
import gc
import importlib.util
import json
import os
import re
import runpy
import sys
import threading

TIMEOUT_SECONDS = 300
PARALLEL = 2
# Libraries whose import makes no JAX backend and starts no thread (checked before each fork;
# blackjax's import makes a backend, numpyro's starts a thread: they are not here).
PRELOADED = {"flax": ("flax.nnx", "flax.linen"), "optax": ("optax",), "equinox": ("equinox",)}
_IMPORTS = re.compile(r"^\s*(?:import|from)\s+(\w+)", re.MULTILINE)


def _preload(jobs):
    """Import the ``PRELOADED`` libraries some job's script imports, as its child would."""
    imported = set()
    for job in jobs:
        with open(job["script"], encoding="utf-8") as handle:
            imported.update(_IMPORTS.findall(handle.read()))
    for package in sorted(imported & PRELOADED.keys()):
        for module in PRELOADED[package]:
            try:
                importlib.import_module(module)
            except ImportError:  # not installed: the scripts that import it fail as they would
                pass


def _threads():
    """This process's threads (Linux; elsewhere an empty set), JAX's and the interpreter's."""
    return set(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else set()


def _serve(jobs, threads):
    """Fork a child per job, ``PARALLEL`` at a time.  In a child: its job; in this process,
    once every child has ended: None, after printing their exit codes (one line).  ``threads``:
    this process's threads before anything was preloaded."""
    from jax._src import xla_bridge

    _preload(jobs)
    codes = [None] * len(jobs)
    running = {}  # pid -> index of its job
    gc.freeze()  # a child's collections would visit, so copy, every object made before it

    def reap():
        pid, status = os.wait()
        codes[running.pop(pid)] = os.waitstatus_to_exitcode(status)

    for index, job in enumerate(jobs):
        if len(running) == PARALLEL:
            reap()
        # A backend made here would be shared by the children, with its threads lost.
        assert not xla_bridge._backends, "a JAX backend exists before fork"
        # A thread started here (by a preloaded library) would be missing in the children.
        assert _threads() <= threads, "a thread started before fork"
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            return job
        running[pid] = index
    while running:
        reap()
    print(json.dumps(codes), flush=True)
    return None


def _run_script():
    runpy.run_path(sys.argv[0], run_name="__main__")


def _exit_after(run):
    """Run ``run`` (it returns an exit status or None) as a script's main code, then exit as
    the interpreter would: with that status or its ``SystemExit``'s (1 after printing an
    uncaught error), once its non-daemon threads have ended, its atexit handlers have run and
    its output is flushed; without the teardown of the modules."""
    try:
        status = run()
    except SystemExit as exc:
        status = exc.code
    except BaseException:
        sys.excepthook(*sys.exc_info())
        status = 1
    if status is not None and not isinstance(status, int):
        print(status, file=sys.stderr)
        status = 1
    threading._shutdown()
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status or 0)


def _become(job, bootstrap):
    """This child's process as ``python [BOOTSTRAP] SCRIPT`` in the script's directory starts
    (its standard input empty: this process's is the pipe its batches come through)."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    for fd, path in ((1, job["stdout"]), (2, job["stderr"])):
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(handle, fd)
        os.close(handle)
    os.chdir(os.path.dirname(job["script"]))
    if "report" in job:
        os.environ["JITLINT_RUNTIME_OUT"] = job["report"]
        sys.argv = [bootstrap, job["script"]]
        sys.path[0] = os.path.dirname(bootstrap)  # what the bootstrap replaces by the script's
    else:
        sys.argv = [job["script"]]
        sys.path[0] = os.path.dirname(job["script"])
    import signal
    signal.alarm(TIMEOUT_SECONDS)


def _main(bootstrap_path):
    """Serve batches until standard input closes; the child of a job returns its job."""
    spec = importlib.util.spec_from_file_location("_jitlint_bootstrap", bootstrap_path)
    bootstrap = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bootstrap)
    import jax  # noqa: F401  (the import the children share)

    threads = _threads()
    for line in sys.stdin:
        with open(line.strip(), encoding="utf-8") as handle:
            jobs = json.load(handle)
        job = _serve(jobs, threads)
        if job is not None:
            return job, bootstrap
    return None, bootstrap


if __name__ == "__main__":
    _job, _bootstrap = _main(sys.argv[1])
    if _job is not None:
        _become(_job, sys.argv[1])
        _exit_after(_bootstrap.main if "report" in _job else _run_script)
