"""Runs inside the user's interpreter to count JAX compiles; stdlib and jax only.

Kept tiny and free of jitlint imports on purpose: it executes in whatever Python has the
user's JAX (``--python``), which need not have jitlint's dependencies.

    python bootstrap.py SCRIPT [ARGS...]      run a script as __main__
    python bootstrap.py -m MODULE [ARGS...]   run a module as __main__

Results go, as JSON, to the file named by $JITLINT_RUNTIME_OUT:
``{"compiles": [{"fun_name", "stack": [[file, line, function], ...]}], "misses": [text],
"outcome": {"status": "ok" | "raised", "type", "message", "stack"}}``.  Each compile is one
``/jax/core/compile/backend_compile_duration`` event (one per executable built); its stack is
the user frames (outside jax) active when it happened, innermost first.
"""

import json
import logging
import os
import runpy
import sys
import traceback

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
_SKIP = (os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep, os.sep + "jax_plugins" + os.sep,
         "<frozen ", os.path.abspath(__file__), os.sep + "runpy.py", os.sep + "_pytest" + os.sep,
         os.sep + "pluggy" + os.sep, "sitecustomize.py")
_MAX_FRAMES = 40

compiles = []
misses = []
outcome = {"status": "ok"}


def _user_stack(frame):
    stack = []
    while frame is not None and len(stack) < _MAX_FRAMES:
        filename = frame.f_code.co_filename
        if not any(part in filename for part in _SKIP):
            stack.append([os.path.abspath(filename), frame.f_lineno, frame.f_code.co_name])
        frame = frame.f_back
    return stack


def _on_duration(event, duration, **kwargs):
    if event == _COMPILE_EVENT:
        compiles.append({"fun_name": kwargs.get("fun_name"), "stack": _user_stack(sys._getframe(1))})


class _MissHandler(logging.Handler):
    def emit(self, record):
        try:
            misses.append(record.getMessage())
        except Exception:
            pass


def install(explain=True):
    """Start counting: a monitoring listener, and JAX's own cache-miss explanations."""
    import jax
    from jax import monitoring

    monitoring.register_event_duration_secs_listener(_on_duration)
    if explain:
        logger = logging.getLogger("jax._src.interpreters.partial_eval")
        logger.addHandler(_MissHandler(logging.WARNING))
        logger.propagate = False  # keep the user's stderr as it was
        jax.config.update("jax_explain_cache_misses", True)


def write(path):
    data = {"compiles": compiles, "misses": misses, "outcome": outcome}
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle)


def run(argv):
    if argv[:1] == ["-m"]:
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")


def main():
    out = os.environ["JITLINT_RUNTIME_OUT"]
    install(explain=os.environ.get("JITLINT_EXPLAIN", "1") == "1")
    try:
        run(sys.argv[1:])
    except SystemExit as exc:
        if exc.code not in (None, 0):
            outcome.update(status="raised", type="SystemExit", message=str(exc.code), stack=[])
    except BaseException as exc:  # the user's error is a result, not our failure
        tb = exc.__traceback__
        frames = [[os.path.abspath(f.filename), f.lineno, f.name] for f in traceback.extract_tb(tb)
                  if not any(part in f.filename for part in _SKIP)]
        outcome.update(status="raised", type=type(exc).__name__, message=str(exc)[:2000],
                       stack=frames[::-1])
        traceback.print_exc()
    finally:
        write(out)
    return 1 if outcome["status"] == "raised" else 0


if __name__ == "__main__":
    sys.exit(main())
