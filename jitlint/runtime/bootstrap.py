"""Runs inside the user's interpreter to count JAX compiles; stdlib and jax only.

Kept tiny and free of jitlint imports on purpose: it executes in whatever Python has the
user's JAX (``--python``), which need not have jitlint's dependencies.

    python bootstrap.py SCRIPT [ARGS...]      run a script as __main__
    python bootstrap.py -m MODULE [ARGS...]   run a module as __main__

Results go, as JSON, to the file named by $JITLINT_RUNTIME_OUT:
``{"compiles": [{"fun_name", "stack": [[file, line, function], ...], "misses": [i, ...],
"jit": n | null, "made": [[file, line, function], ...] | null, "target": [file, line, name] |
null}], "misses": [text], "lines": {id: executions}, "tracer": "ok" | "off" | "replaced",
"raises": {id: {"type", "message"}}, "stale": {id: {...}}, "libraries": [[dir, name], ...],
"outcome": {"status": "ok" | "raised", "type", "message", "stack"}}``.  Each compile is one
``/jax/core/compile/backend_compile_duration`` event (one per executable built); its stack is
the user frames (outside jax) active when it happened, innermost first; ``misses`` indexes
the cache-miss explanations JAX logged since the previous compile (its own among them);
``made`` is the stack where the compiling ``jax.jit`` object was created (by the user's code
or by a library such as equinox or flax; null for JAX's own eager operations), ``jit`` the
number of that jit object in this run, ``target`` the function it wraps (through partials,
bound methods and ``__wrapped__``); ``libraries`` says which files are whose (``library_dirs``).

``$JITLINT_LINES`` names a JSON file ``[[id, file, first, last, owner_name, owner_line, kind,
names, evaluated], ...]``: executions of those line ranges are counted (a ``sys.settrace``
hook that only traces frames of the listed code, see docs/confirm.md; with ``evaluated`` =
[line, byte column, end line, end byte column], evaluations of that expression); an exception passing through the
lines is recorded in ``raises`` even when the program catches it; for ``kind`` "read"/"write"
(a value read or written by a jitted body) the values of ``names`` at each trace are compared
with those at later calls that reused the compiled program (``stale``).  Imported as
``sitecustomize`` helper, ``autostart()`` instruments any Python process and writes
``$JITLINT_RUNTIME_DIR/report-<pid>.json`` at exit.
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
# Frames of these are left out of the recorded stacks: JAX itself, jitlint's own files (this
# bootstrap, the --run hook, count_compiles), the interpreter's import machinery, and the
# runners that start the user's code.  Which library a frame belongs to is told by
# ``library_of`` (where the interpreter installs packages, JAX's package directories).
_NOT_RECORDED = frozenset({"jax", "jaxlib", "jax_plugins", "jitlint", "<frozen>", "runpy",
                           "_pytest", "pluggy"})
_MAX_FRAMES = 40
_COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")
# A ``for`` loop ending on a Python iterator shows as an exception event: not an error.
_ITERATION_ENDS = (StopIteration, StopAsyncIteration, GeneratorExit)

compiles = []
misses = []
outcome = {"status": "ok"}
lines = {}
raises = {}  # site id -> the first exception seen passing through its lines
# site id -> {"kind", "names", "traces", "calls", "reused" (calls without a trace), "changed"
# (of those, calls that saw other values), "traced" (values at the last trace), "was"/"now"
# (at the first change), "last" (at the last reused call)}
stale = {}
_pending = []  # indexes of misses logged since the last compile
_state = {"installed": False, "tracer": "off", "written": False, "jits": 0}


def user_stack(frame):
    """The frames of the user's code and of libraries (not JAX's, not ours), innermost first,
    as [file, line, function]."""
    stack = []
    while frame is not None and len(stack) < _MAX_FRAMES:
        filename = frame.f_code.co_filename
        if _library(filename) not in _NOT_RECORDED:
            stack.append([os.path.abspath(filename), frame.f_lineno, frame.f_code.co_name])
        frame = frame.f_back
    return stack


# ---------------------------------------------------------------------------- whose code
# A frame is the user's or a library's by where its file is: under a directory this interpreter
# installs packages into or keeps its standard library in (sysconfig's and site's own answers,
# wherever the virtualenv is), in JAX's package directories (from the imported modules), or in
# jitlint's own directory: a library's; anywhere else (the user's project, a script in /tmp,
# code compiled from a string or an IPython cell): the user's.  The file the run was asked to
# execute is the user's wherever it is.
_libraries = {"dirs": None, "main": None}


def library_dirs():
    """``[[directory, name], ...]``, innermost first: ``name`` is the library every file
    under ``directory`` belongs to ("" for an install directory: each entry in it is one, named
    after it), null for the user's own file."""
    import site
    import sysconfig

    found = {}
    bases = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
             "installed_base": sys.base_prefix, "installed_platbase": sys.base_exec_prefix}
    for variables in (None, bases):
        try:
            paths = sysconfig.get_paths(vars=variables)
        except (KeyError, ValueError):
            continue
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            if paths.get(key):
                found[paths[key]] = ""
    for getter in ("getsitepackages", "getusersitepackages"):
        try:
            places = getattr(site, getter)()
        except Exception:  # an old virtualenv's site.py lacks them
            continue
        for place in [places] if isinstance(places, str) else places:
            found[place] = ""
    for name in ("jax", "jaxlib", "jax_plugins"):
        module = sys.modules.get(name)
        for place in getattr(module, "__path__", None) or ():
            found[place] = name
    found[os.path.dirname(_HERE)] = "jitlint"
    if _libraries["main"]:
        found[_libraries["main"]] = None
    dirs = {os.path.realpath(place): name for place, name in found.items()}
    return [[place, dirs[place]] for place in sorted(dirs, key=len, reverse=True)]


def library_of(path, dirs):
    """The library a file (a real path) belongs to, or None for the user's code."""
    if path.startswith("<"):
        # Frozen modules are the interpreter's import machinery; other code compiled from a
        # string (``<string>``, ``<stdin>``, an IPython cell) is the user's.
        return "<frozen>" if path.startswith("<frozen ") else None
    for place, name in dirs:
        if path == place or path.startswith(place + os.sep):
            if name == "":
                return os.path.splitext(path[len(place) + 1:].split(os.sep, 1)[0])[0]
            return name
    return None


_real = {}  # co_filename -> realpath (frames are classified on every compile)


def libraries():
    """This process's ``library_dirs()`` (computed once, and again after JAX is imported)."""
    if _libraries["dirs"] is None:
        _libraries["dirs"] = library_dirs()
    return _libraries["dirs"]


def _library(filename):
    dirs = libraries()
    path = _real.get(filename)
    if path is None:
        path = _real[filename] = filename if filename.startswith("<") else os.path.realpath(filename)
    return library_of(path, dirs)


def _on_duration(event, duration, **kwargs):
    if event == _COMPILE_EVENT:
        frame = sys._getframe(1)
        jit, made, target = compiling_jit(frame)
        compiles.append({"fun_name": kwargs.get("fun_name"), "stack": user_stack(frame),
                         "misses": list(_pending), "jit": jit, "made": made, "target": target})
        del _pending[:]


# ---------------------------------------------------------------------------- jit objects
# Where each jax.jit object was created: a compile happens where the object is *called*, which
# for ``scale = jax.jit(partial(f, 1.0)); scale(w)`` or a library's jit (equinox, flax nnx) is
# not where the user made it.  JAX keeps no such record, so ``pjit._cpp_pjit`` (which every
# jax.jit goes through) is wrapped to note it, keyed by the jit's PjitInfo; the compile listener
# finds that PjitInfo in the frame of JAX's ``cache_miss``.
_made = {}  # id(jit_info) -> (the jit object's number, its creation stack)
_stale_owners = {}  # (file, co_name, co_firstlineno) -> [site id, ...] of read/write sites
_error_sites = {}  # abspath -> [(first, last, site id)] of findings that predict an exception


def hook_jit_creation():
    """Note where each ``jax.jit`` object is made, and by whom (idempotent).  Also used by
    ``count_compiles()`` in the user's own process."""
    try:
        from jax._src import pjit
    except ImportError:
        return
    original = getattr(pjit, "_cpp_pjit", None)
    if original is None or getattr(original, "_jitlint", False):
        return

    def _cpp_pjit(fun, jit_info):
        jitted = original(fun, jit_info)
        try:
            frame = sys._getframe(1)
            if _made_by_jit_api(frame) and not _library_import(frame):
                key = id(jit_info)
                stack = user_stack(frame)
                _state["jits"] += 1
                _made[key] = (_state["jits"], stack)
                import weakref
                weakref.finalize(jitted, _made.pop, key, None)
                jitted = _watch_errors(jitted, stack)
            if _stale_owners:
                jitted = _watch_stale(fun, jitted)
        except Exception:
            pass
        return jitted

    _cpp_pjit._jitlint = True
    pjit._cpp_pjit = _cpp_pjit


def _made_by_jit_api(frame):
    """``jax.jit`` called by user or library code, not by JAX itself (its eager operations and
    its own ``@jit`` functions)."""
    while frame is not None and _library(frame.f_code.co_filename) == "jax":
        code = frame.f_code
        if code.co_name in ("jit", "<lambda>") and code.co_filename.endswith(os.sep + "api.py"):
            caller = frame.f_back  # skipping JAX's traceback-filtering wrapper
            while caller is not None and caller.f_code.co_filename.endswith("traceback_util.py"):
                caller = caller.f_back
            return caller is not None and _library(caller.f_code.co_filename) != "jax"
        frame = frame.f_back
    return False


def _library_import(frame):
    """A library's own jit, made while the library is imported (its module-level ``@jax.jit``
    functions): not the user's, though the user's ``import`` line is on the stack.  Walking out
    from the jit, a library's module body met before any of the user's frames is such an
    import; a user's frame met first made the jit (or called what made it), whatever runs
    below it (pytest-xdist's workers run every test under execnet's module body).  The program
    being run (``__main__``: a script, ``python -m pytest``) is not an import."""
    while frame is not None:
        code = frame.f_code
        if _library(code.co_filename) is None:
            return False
        if code.co_name == "<module>" and frame.f_globals.get("__name__") != "__main__":
            return True
        frame = frame.f_back
    return False


def compiling_jit(frame):
    """(number, creation stack, [file, line, name] of the wrapped function) of the jit
    compiling now; the first two are None for a jit nobody noted (JAX's eager operations)."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "cache_miss" and code.co_filename.endswith("pjit.py"):
            local = frame.f_locals
            jit, made = _made.get(id(local.get("jit_info")), (None, None))
            target = _code_of(local.get("fun"))
            where = [os.path.abspath(target.co_filename), target.co_firstlineno,
                     target.co_name] if target is not None else None
            return jit, made, where
        frame = frame.f_back
    return None, None, None


def _unwrap(function):
    """The plain Python function behind a partial, a bound method or a wrapper; else None."""
    for _ in range(8):
        if function is None or getattr(function, "__code__", None) is not None:
            return function
        function = (getattr(function, "func", None) or getattr(function, "__func__", None)
                    or getattr(function, "__wrapped__", None))
    return None


def _code_of(function):
    function = _unwrap(function)
    return function.__code__ if function is not None else None


# ---------------------------------------------------------------------------- stale values
def _value_text(value):
    try:
        text = repr(value)
    except Exception:
        text = "<%s>" % type(value).__name__
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


_UNBOUND = object()


def _attributes(value, path):
    """``value`` followed along ``path`` (the attributes of a dotted name), as text."""
    for attribute in path:
        if value is _UNBOUND:
            break
        try:
            value = getattr(value, attribute)
        except Exception:
            value = _UNBOUND
    return "<unbound>" if value is _UNBOUND else _value_text(value)


def _lookup(function, name, receiver=_UNBOUND):
    """The value of an outer name (``scale``, ``self.w``, ``config.lr``) as the body of
    ``function`` would read it now: ``self`` is the object a bound method was jitted with."""
    root, *path = name.split(".")
    code = getattr(function, "__code__", None)
    value = _UNBOUND
    if receiver is not _UNBOUND and code is not None and code.co_argcount and \
            code.co_varnames[0] == root:
        value = receiver
    elif code is not None and root in code.co_freevars and function.__closure__:
        try:
            value = function.__closure__[code.co_freevars.index(root)].cell_contents
        except ValueError:
            pass
    else:
        value = getattr(function, "__globals__", {}).get(root, _UNBOUND)
    return _attributes(value, path)


def _receiver(fun):
    """The object a bound method (possibly inside partials or wrappers) is bound to."""
    for _ in range(8):
        if fun is None:
            break
        if getattr(fun, "__func__", None) is not None and hasattr(fun, "__self__"):
            return fun.__self__
        fun = getattr(fun, "func", None) or getattr(fun, "__wrapped__", None)
    return _UNBOUND


def _watch_stale(fun, jitted):
    """Wrap a jitted function whose body reads or writes a flagged outer value: each call that
    reuses the compiled program (no trace) is compared with what the last trace saw."""
    function, receiver = _unwrap(fun), _receiver(fun)
    if function is None:
        return jitted
    code = function.__code__
    sites = _stale_owners.get((os.path.abspath(code.co_filename), code.co_name, code.co_firstlineno))
    if not sites:
        return jitted
    def watched(*args, **kwargs):
        before = [stale[s]["traces"] for s in sites]
        result = jitted(*args, **kwargs)
        for site, traces in zip(sites, before):
            record = stale[site]
            record["calls"] += 1
            if record["traces"] != traces or record["traced"] is None:
                continue  # this call traced the body: its values are the new baseline
            record["reused"] += 1
            now = record["last"] = {name: _lookup(function, name, receiver)
                                    for name in record["names"]}
            if now != record["traced"]:
                record["changed"] += 1
                if record["now"] is None:
                    record["now"] = now
                    record["was"] = dict(record["traced"])
        return result

    return _wrap_like(watched, jitted)


def _wrap_like(watched, jitted):
    """``watched`` standing in for the jitted function: its name, docs and JAX's methods."""
    import functools

    functools.update_wrapper(watched, jitted)
    for name in ("lower", "trace", "eval_shape", "clear_cache", "_cache_size"):
        if hasattr(jitted, name):
            setattr(watched, name, getattr(jitted, name))
    return watched


def _watch_errors(jitted, stack):
    """A jit made on the lines of a finding that predicts an exception when the jitted function
    is called (``@jax.jit`` on a method of a plain class raises TypeError at the first call,
    not on the decorator's line): the first exception a call raises is that finding's, also
    when the program catches it."""
    if not stack or not _error_sites:
        return jitted
    path, line = stack[0][0], stack[0][1]
    sites = [ident for first, last, ident in _error_sites.get(path, ()) if first <= line <= last]
    if not sites:
        return jitted

    def watched(*args, **kwargs):
        try:
            return jitted(*args, **kwargs)
        except Exception as exc:
            for site in sites:
                if site not in raises:
                    raises[site] = {"type": type(exc).__name__, "message": _message(exc)}
            raise

    return _wrap_like(watched, jitted)


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
    _libraries["dirs"] = None  # now with JAX's own directories
    monitoring.register_event_duration_secs_listener(_on_duration)
    hook_jit_creation()
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
        for spec in json.load(handle):
            ident, filename, first, last, owner, owner_line = spec[:6]
            kind = spec[6] if len(spec) > 6 else "compile"
            names = spec[7] if len(spec) > 7 else []
            # Code objects' positions (Python 3.11+) let an expression's evaluations be counted.
            evaluated = tuple(spec[8]) if len(spec) > 8 and spec[8] and \
                sys.version_info >= (3, 11) else None
            ident = str(ident)
            _wanted.setdefault(os.path.abspath(filename), []).append(
                (first, last, owner, owner_line, ident, kind, evaluated))
            if kind == "error":
                _error_sites.setdefault(os.path.abspath(filename), []).append((first, last, ident))
            if kind in ("read", "write") and names:
                stale[ident] = {"kind": kind, "names": list(names), "traces": 0, "calls": 0,
                                "reused": 0, "changed": 0, "traced": None, "now": None,
                                "was": None, "last": None}
                owners = _stale_owners.setdefault((os.path.abspath(filename), owner, owner_line), [])
                if ident not in owners:
                    owners.append(ident)


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


_starts = {}  # (code, site id) -> offset of the first instruction of the site's expression


def _evaluations(code, ranges):
    """{instruction offset: [site id, ...]}: for each site counted by evaluations (an
    expression in a comprehension, which runs many times in one execution of its statement),
    the first instruction of its expression in this code object, if it is here."""
    found = {}
    for spec in ranges:
        if spec[6] is None:
            continue
        key = (code, spec[4])
        if key not in _starts:
            line, column, end_line, end_column = spec[6]
            _starts[key] = None
            for index, position in enumerate(code.co_positions()):
                if position[0] is not None and position[2] is not None and \
                        (line, column) <= (position[0], position[2]) < (end_line, end_column):
                    _starts[key] = 2 * index
                    break
        if _starts[key] is not None:
            found.setdefault(_starts[key], []).append(spec[4])
    return found


def _tracer(frame, event, arg):
    ranges = _ranges(frame.f_code)
    if ranges is None:
        return None
    current = [None, -1]  # the statement the frame is in, the last instruction seen
    by_lines = [s for s in ranges if s[6] is None]  # counted per execution of the statement
    evaluations = _evaluations(frame.f_code, ranges)
    if evaluations:
        frame.f_trace_opcodes = True
    watched = [s for s in ranges if s[4] in stale and s[2] == frame.f_code.co_name]
    for spec in watched:
        stale[spec[4]]["traces"] += 1  # a jitted body runs only when JAX traces it

    def local(frame, event, arg):
        if event == "opcode":
            for ident in evaluations.get(frame.f_lasti, ()):
                lines[ident] = lines.get(ident, 0) + 1
            return local
        if event == "exception" and not issubclass(arg[0], _ITERATION_ENDS):
            line = frame.f_lineno
            for spec in ranges:
                if spec[0] <= line <= spec[1] and spec[4] not in raises:
                    raises[spec[4]] = {"type": arg[0].__name__, "message": _message(arg[1])}
        elif event == "return" and watched:
            for spec in watched:
                record = stale[spec[4]]
                record["traced"] = {name: _frame_value(frame, name) for name in record["names"]}
        if event == "line":
            line, lasti = frame.f_lineno, frame.f_lasti
            inside = [spec for spec in by_lines if spec[0] <= line <= spec[1]]
            statement = (inside[0][0], inside[0][1]) if inside else None
            # Entering a statement, or jumping back into it (a loop), is one more execution
            # (of every finding in it).
            if statement is not None and (statement != current[0] or lasti <= current[1]):
                for spec in inside:
                    if (spec[0], spec[1]) == statement:
                        lines[spec[4]] = lines.get(spec[4], 0) + 1
            current[0], current[1] = statement, lasti
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


def _frame_value(frame, name):
    """The value of an outer name as the traced body sees it: a closure cell or a global;
    the root of a dotted name (``self.w``) may also be a parameter."""
    root, *path = name.split(".")
    if root in frame.f_locals and (path or root in frame.f_code.co_freevars):
        return _attributes(frame.f_locals[root], path)
    return _attributes(frame.f_globals.get(root, _UNBOUND), path)


def _message(exc):
    try:
        return str(exc)[:2000]
    except Exception:
        return ""


# ---------------------------------------------------------------------------- report
def _stop_tracer():
    if _state["tracer"] == "ok":
        if sys.gettrace() is not _tracer:
            _state["tracer"] = "replaced"  # a debugger or coverage took over: counts are partial
        sys.settrace(None)


def write(path):
    _stop_tracer()
    data = {"compiles": compiles, "misses": misses, "outcome": outcome, "lines": lines,
            "raises": raises, "stale": stale, "libraries": libraries(),
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
              if _library(f.filename) not in _NOT_RECORDED]
    outcome.update(status="raised", type=type(exc).__name__, message=_message(exc),
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
        _libraries["main"], _libraries["dirs"] = os.path.abspath(argv[0]), None
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
        while tb is not None and _library(tb.tb_frame.f_code.co_filename) in _NOT_RECORDED:
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
