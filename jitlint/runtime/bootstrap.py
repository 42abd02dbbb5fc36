"""Runs inside the user's interpreter to count JAX compiles; stdlib and jax only.

Kept tiny and free of jitlint imports on purpose: it executes in whatever Python has the
user's JAX (``--python``), which need not have jitlint's dependencies.

    python bootstrap.py SCRIPT [ARGS...]      run a script as __main__
    python bootstrap.py -m MODULE [ARGS...]   run a module as __main__

Results go, as JSON, to the file named by $JITLINT_RUNTIME_OUT:
``{"compiles": [{"fun_name", "stack": [[file, line, function], ...], "misses": [i, ...]}],
"misses": [text], "lines": {id: executions}, "tracer": "ok" | "off" | "replaced",
"outcome": {"status": "ok" | "raised", "type", "message", "stack"}}``.  Each compile is one
``/jax/core/compile/backend_compile_duration`` event (one per executable built); its stack is
the user frames (outside jax) active when it happened, innermost first; ``misses`` indexes
the cache-miss explanations JAX logged since the previous compile (its own among them).

``$JITLINT_LINES`` names a JSON file ``[[id, file, first, last, owner_name, owner_line], ...]``:
executions of those line ranges are counted (a ``sys.settrace`` hook that only traces frames
of the listed code, see docs/confirm.md).  Imported as ``sitecustomize`` helper, ``autostart()``
instruments any Python process and writes ``$JITLINT_RUNTIME_DIR/report-<pid>.json`` at exit.
"""

import json
import logging
import os
import runpy
import signal
import sys
import threading
import traceback

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
_HERE = os.path.abspath(__file__)
_SKIP = (os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep, os.sep + "jax_plugins" + os.sep,
         "<frozen ", _HERE, os.sep + "runpy.py", os.sep + "_pytest" + os.sep,
         os.sep + "pluggy" + os.sep, "sitecustomize.py", os.sep + "_jitlint_bootstrap.py")
_MAX_FRAMES = 40
_COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")

compiles = []
misses = []
outcome = {"status": "ok"}
lines = {}
_pending = []  # indexes of misses logged since the last compile
_state = {"installed": False, "tracer": "off", "written": False}


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
        compiles.append({"fun_name": kwargs.get("fun_name"), "stack": _user_stack(sys._getframe(1)),
                         "misses": list(_pending)})
        del _pending[:]


class _MissHandler(logging.Handler):
    def emit(self, record):
        try:
            misses.append(record.getMessage())
            _pending.append(len(misses) - 1)
        except Exception:
            pass


def install(explain=True):
    """Start counting: a monitoring listener, and JAX's own cache-miss explanations."""
    import jax
    from jax import monitoring

    if _state["installed"]:
        return
    _state["installed"] = True
    monitoring.register_event_duration_secs_listener(_on_duration)
    if explain:
        logger = logging.getLogger("jax._src.interpreters.partial_eval")
        logger.addHandler(_MissHandler(logging.WARNING))
        logger.propagate = False  # keep the user's stderr as it was
        jax.config.update("jax_explain_cache_misses", True)


# ---------------------------------------------------------------------------- line counts
_specs = {}  # co_filename -> [(first, last, owner_name, owner_line, id)] or None
_wanted = {}  # abspath -> list of ranges


def _load_lines(path):
    with open(path, encoding="utf-8") as handle:
        for ident, filename, first, last, owner, owner_line in json.load(handle):
            _wanted.setdefault(os.path.abspath(filename), []).append(
                (first, last, owner, owner_line, str(ident)))


def _ranges(code):
    specs = _specs.get(code.co_filename, False)
    if specs is False:
        specs = _specs[code.co_filename] = _wanted.get(os.path.abspath(code.co_filename))
    if not specs:
        return None
    name, first = code.co_name, code.co_firstlineno
    chosen = [s for s in specs if (s[2] == name and s[3] == first)
              or (name in _COMPREHENSIONS and s[0] <= first <= s[1])]
    return chosen or None


def _tracer(frame, event, arg):
    ranges = _ranges(frame.f_code)
    if ranges is None:
        return None
    current = [None, -1]  # the range the frame is in, the last instruction seen

    def local(frame, event, arg):
        if event == "line":
            line, lasti = frame.f_lineno, frame.f_lasti
            inside = None
            for spec in ranges:
                if spec[0] <= line <= spec[1]:
                    inside = spec
                    break
            # Entering a range, or jumping back into it (a loop), is one more execution.
            if inside is not None and (inside is not current[0] or lasti <= current[1]):
                lines[inside[4]] = lines.get(inside[4], 0) + 1
            current[0], current[1] = inside, lasti
        return local

    return local


def _start_tracer():
    path = os.environ.get("JITLINT_LINES")
    if not path:
        return
    try:
        _load_lines(path)
    except (OSError, ValueError):
        return
    sys.settrace(_tracer)
    threading.settrace(_tracer)
    _state["tracer"] = "ok"


# ---------------------------------------------------------------------------- report
def _stop_tracer():
    if _state["tracer"] == "ok":
        if sys.gettrace() is not _tracer:
            _state["tracer"] = "replaced"  # a debugger or coverage took over: counts are partial
        sys.settrace(None)


def write(path):
    _stop_tracer()
    data = {"compiles": compiles, "misses": misses, "outcome": outcome, "lines": lines,
            "tracer": _state["tracer"], "jax": _state["installed"], "pid": os.getpid(),
            "argv": sys.argv[:20], "cwd": os.getcwd()}
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    os.replace(tmp, path)
    _state["written"] = True


def _record_exception(exc):
    frames = [[os.path.abspath(f.filename), f.lineno, f.name]
              for f in traceback.extract_tb(exc.__traceback__)
              if not any(part in f.filename for part in _SKIP)]
    outcome.update(status="raised", type=type(exc).__name__, message=str(exc)[:2000],
                   stack=frames[::-1])


def _on_sigterm(path):
    def handler(signum, frame):
        # jitlint's timeout: keep what was measured, then go.
        outcome.update(status="killed", type="timeout", message="", stack=[])
        try:
            write(path)
        finally:
            os._exit(128 + signum)
    return handler


def run(argv):
    if argv[:1] == ["-m"]:
        sys.argv = argv[1:]
        _set_path0(os.getcwd())
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        _set_path0(os.path.dirname(os.path.abspath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")


def _set_path0(directory):
    """What ``python SCRIPT`` / ``python -m`` put first on sys.path, instead of our own folder."""
    if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(_HERE):
        sys.path[0] = directory
    else:
        sys.path.insert(0, directory)


def main():
    out = os.environ["JITLINT_RUNTIME_OUT"]
    signal.signal(signal.SIGTERM, _on_sigterm(out))
    install(explain=os.environ.get("JITLINT_EXPLAIN", "1") == "1")
    _start_tracer()
    try:
        run(sys.argv[1:])
    except SystemExit as exc:
        if exc.code not in (None, 0):
            outcome.update(status="raised", type="SystemExit", message=str(exc.code), stack=[])
    except BaseException as exc:  # the user's error is a result, not our failure
        _record_exception(exc)
        tb = exc.__traceback__
        while tb is not None and any(part in tb.tb_frame.f_code.co_filename for part in _SKIP):
            tb = tb.tb_next  # the traceback starts in the user's script, as without us
        traceback.print_exception(type(exc), exc, tb)
    finally:
        write(out)
    return 1 if outcome["status"] == "raised" else 0


# ---------------------------------------------------------------------------- any process
class _JaxImportHook:
    """Install the counters right after ``import jax`` finishes, in processes that use JAX."""

    def find_spec(self, name, path=None, target=None):
        if name != "jax":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        import importlib.util
        spec = importlib.util.find_spec("jax")
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_install(module):
            exec_module(module)
            try:
                install(explain=os.environ.get("JITLINT_EXPLAIN", "1") == "1")
            except Exception:
                pass

        spec.loader.exec_module = exec_and_install
        return spec


def autostart():
    """For ``--run``: count in this process (and write a report at exit) if asked to."""
    directory = os.environ.get("JITLINT_RUNTIME_DIR")
    if not directory or not os.path.isdir(directory):
        return
    out = os.path.join(directory, "report-%d.json" % os.getpid())
    if "jax" in sys.modules:
        install(explain=os.environ.get("JITLINT_EXPLAIN", "1") == "1")
    else:
        sys.meta_path.insert(0, _JaxImportHook())
    _start_tracer()
    previous_hook = sys.excepthook

    def excepthook(kind, exc, tb):
        _record_exception(exc)
        previous_hook(kind, exc, tb)

    sys.excepthook = excepthook
    if threading.current_thread() is threading.main_thread():
        try:
            signal.signal(signal.SIGTERM, _on_sigterm(out))
        except (ValueError, OSError):
            pass
    import atexit

    def at_exit():
        if not _state["written"]:
            try:
                write(out)
            except OSError:
                pass

    atexit.register(at_exit)


if __name__ == "__main__":
    sys.exit(main())
