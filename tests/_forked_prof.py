"""Run many scripts, each as a fresh Python process would, after one import of JAX.

    python forked_runs.py BOOTSTRAP JOBS.json

``JOBS.json``: ``[{"script", "stdout", "stderr", "report"}, ...]`` (paths).  With ``report``
a script runs as ``python BOOTSTRAP SCRIPT`` runs it, writing the bootstrap's report there;
without, as ``python SCRIPT``; in the script's directory, its output going to the two files.
Each runs in a process of its own: a child forked from this one, so with its own ``__main__``,
counters, JAX caches and JAX config, and the interpreter's exit status and exit steps (thread
joins, atexit handlers, flushed output).  What it skips is the import of JAX, about 1.6
CPU-seconds, more than most fixtures take to run, and the teardown of every module at exit,
which in a forked child costs about 0.3 CPU-seconds: it touches, and so copies page by page,
the memory the child shares with this process (so does a garbage collection: the objects made
before the fork are frozen out of the children's collections).  Two children run at a time
(one per core of the machines the suite is sized for).  At the end this prints the children's
exit codes, as a JSON list in the jobs' order.

JAX reads its environment variables (``JAX_PLATFORMS``, ``JAX_DISABLE_JIT``) when imported:
this process gets the children's environment.  Forking after ``import jax`` is safe because
importing JAX makes no backend and starts no thread of JAX's (each child makes its own backend
at its first computation); this process checks that before every fork.  A child that runs
past ``TIMEOUT_SECONDS`` is killed by SIGALRM.

Test code, not jitlint's: the bootstrap is loaded from the copy under test.  This file's own
frame lies below every child's, so the bootstrap's reports name it in their compile stacks:
``helpers.run_forked`` drops it.
"""

import atexit
import gc
import importlib.util
import json
import os
import runpy
import sys
import threading

TIMEOUT_SECONDS = 300
PARALLEL = 2


def _serve(jobs):
    """Fork a child per job, ``PARALLEL`` at a time.  In a child: its job; in this process,
    once every child has ended: None, after printing their exit codes."""
    from jax._src import xla_bridge

    codes = [None] * len(jobs)
    running = {}  # pid -> index of its job
    gc.freeze()  # a child's collections would visit, so copy, every object made before it

    def reap():
        pid, status, _ru = os.wait4(-1, 0); sys.stderr.write(json.dumps(["CPU", jobs[running[pid]]["script"], _ru.ru_utime + _ru.ru_stime]) + "\n")
        codes[running.pop(pid)] = os.waitstatus_to_exitcode(status)

    for index, job in enumerate(jobs):
        if len(running) == PARALLEL:
            reap()
        # A backend made here would be shared by the children, with its threads lost.
        assert not xla_bridge._backends, "a JAX backend exists before fork"
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            return job
        running[pid] = index
    while running:
        reap()
    print(json.dumps(codes))
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
    """This child's process as ``python [BOOTSTRAP] SCRIPT`` in the script's directory starts."""
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


if __name__ == "__main__":
    _bootstrap_path, _jobs_path = sys.argv[1:3]
    with open(_jobs_path, encoding="utf-8") as _handle:
        _jobs = json.load(_handle)
    _spec = importlib.util.spec_from_file_location("_jitlint_bootstrap", _bootstrap_path)
    _bootstrap = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_bootstrap)
    import jax  # noqa: F401  (the import the children share)

    _job = _serve(_jobs)
    if _job is not None:
        _become(_job, _bootstrap_path)
        _exit_after(_bootstrap.main if "report" in _job else _run_script)
