"""Static-argument specs of jitted functions, class hashability, and the project-wide index.

``StaticArgSpec`` records, for one jitted function, what ``jax.jit`` would record: the
signature's parameters and the ``static_argnums`` / ``static_argnames`` / ``donate_*``
keywords, from every form (``@jax.jit``, ``@partial(jax.jit, ...)``, ``g = jax.jit(f, ...)``,
methods, ``equinox.filter_jit``).  ``effective_static`` infers the missing half exactly as
``jax._src.api_util.infer_argnums_and_argnames`` does, so call sites are judged as JAX judges
them.

``ModuleSummary`` is what one file tells the others: its dotted module name, its module-level
jitted functions with their specs, its classes' hashability and what it imports.  It holds only
strings, ints, bools and tuples: deterministic and picklable (a result cache can key on it).
``ProjectIndex`` maps dotted names to summaries; files that import from the linted tree are
linted a second time with it (see engine.lint_files).  Linting one file alone needs no index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

import libcst as cst

from jitlint.jitnames import FILTERING_JIT_FUNCTIONS, JitApplication
from jitlint.semantic import Binding, Scope, SemanticModel

# jit-likes whose keywords are jax.jit's static_argnums / static_argnames / donate_*.
ARGNUM_JITS = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})
DATACLASS = frozenset({"dataclasses.dataclass"})
SPEC_KEYWORDS = ("static_argnums", "static_argnames", "donate_argnums", "donate_argnames")

# Class verdicts: how instances hash.
UNHASHABLE, VALUE, IDENTITY, UNKNOWN, INHERIT = "unhashable", "value", "identity", "unknown", "inherit"


# ---------------------------------------------------------------------------- specs
@dataclass(frozen=True)
class StaticArgSpec:
    """How one jitted function treats its arguments.  Argnums are as written (may be negative)."""

    name: str
    jit: str  # qualified name of the jit-like wrapper
    positional: tuple[str, ...] = ()  # positional parameters, in order (self included)
    posonly: int = 0  # how many leading positional parameters are positional-only
    kwonly: tuple[str, ...] = ()
    varargs: bool = False
    varkw: bool = False
    static_argnums: Optional[tuple[int, ...]] = None  # None: not given
    static_argnames: Optional[tuple[str, ...]] = None
    donate_argnums: Optional[tuple[int, ...]] = None
    donate_argnames: Optional[tuple[str, ...]] = None
    readable: bool = True  # every spec keyword was a literal we could read
    signature_known: bool = True  # no decorator under the jit that may change the signature
    method: bool = False  # a function defined in a class body (called as obj.name: self shifts)

    @property
    def filtering(self) -> bool:
        """equinox.filter_jit: every non-array argument is static."""
        return self.jit in FILTERING_JIT_FUNCTIONS

    @property
    def checkable(self) -> bool:
        return self.readable and self.signature_known and (self.filtering or self.jit in ARGNUM_JITS)

    def effective_static(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """(static_argnums, static_argnames) as jax.jit infers them from the signature."""
        return _infer(self, self.static_argnums, self.static_argnames)

    def param_at(self, index: int) -> Optional[str]:
        if 0 <= index < len(self.positional):
            return self.positional[index]
        return None


def _infer(spec: StaticArgSpec, argnums, argnames) -> tuple[tuple[int, ...], tuple[str, ...]]:
    if argnums is None and argnames is None:
        return (), ()
    if argnums is not None and argnames is not None:
        return argnums, argnames
    # Only POSITIONAL_OR_KEYWORD parameters take part in the inference.
    keyword_positions = [(i, name) for i, name in enumerate(spec.positional) if i >= spec.posonly]
    if argnums is None:
        return tuple(i for i, name in keyword_positions if name in argnames), argnames
    return argnums, tuple(name for i, name in keyword_positions if i in argnums)


def spec_errors(spec: StaticArgSpec) -> Iterator[tuple[str, str]]:
    """(keyword, message) for each ValueError jax.jit raises when applied (api_util.resolve_argnums)."""
    if not (spec.readable and spec.signature_known and spec.jit in ARGNUM_JITS):
        return
    n_positional = len(spec.positional)
    for keyword, argnums, argnames in (("static", spec.static_argnums, spec.static_argnames),
                                       ("donate", spec.donate_argnums, spec.donate_argnames)):
        nums, names = _infer(spec, argnums, argnames)
        if nums and not spec.varargs and (-min(nums) > n_positional or max(nums) >= n_positional):
            bad = [n for n in nums if n >= n_positional or -n > n_positional]
            yield f"{keyword}_argnums", (
                f"{keyword}_argnums={_show(nums)} but `{spec.name}` takes {n_positional} positional "
                f"argument{'s' if n_positional != 1 else ''} ({_params(spec)}): position {bad[0]} "
                f"does not exist, so jax.jit raises ValueError when applied; "
                f"use an index below {n_positional} or {keyword}_argnames")
        posonly = set(spec.positional[:spec.posonly])
        if names and posonly & set(names):
            bad_name = sorted(posonly & set(names))[0]
            yield f"{keyword}_argnames", (
                f"{keyword}_argnames names `{bad_name}`, a positional-only parameter of "
                f"`{spec.name}`, so jax.jit raises ValueError when applied; "
                f"use {keyword}_argnums={spec.positional.index(bad_name)}")
        elif names and not spec.varkw:
            valid = set(spec.positional[spec.posonly:]) | set(spec.kwonly)
            missing = sorted(set(names) - valid)
            if missing:
                yield f"{keyword}_argnames", (
                    f"{keyword}_argnames names `{missing[0]}`, which is not a parameter of "
                    f"`{spec.name}` ({_params(spec)}), so jax.jit raises ValueError when applied; "
                    f"name one of its parameters")


def _show(nums: tuple[int, ...]) -> str:
    return str(nums[0]) if len(nums) == 1 else str(tuple(nums))


def _params(spec: StaticArgSpec) -> str:
    names = list(spec.positional) + [f"*, {n}" if i == 0 else n for i, n in enumerate(spec.kwonly)]
    return ", ".join(names) if names else "no parameters"


def spec_of(app: JitApplication, model: SemanticModel) -> Optional[StaticArgSpec]:
    """The spec of one jit application, when its target is a ``def`` this module shows."""
    function = target_def(app, model)
    if function is None:
        return None
    jit = app.jit.qualname
    signature_known = True
    method = False
    frame = model.functions[function]
    if isinstance(app.target, cst.FunctionDef):
        names = [_decorator_name(d) for d in function.decorators]
        index = next(i for i, d in enumerate(function.decorators) if d is app.anchor)
        if any(names[index + 1:]):  # decorators applied before the jit
            signature_known = False
        if any(name not in ("staticmethod",) for name in names[:index]):
            signature_known = False  # wrapped again after the jit: calls do not reach it directly
        method = frame.scope.kind == "class" and "staticmethod" not in names
        if "classmethod" in names:
            return None
    elif function.decorators:
        signature_known = False
    params = function.params
    positional = tuple(p.name.value for p in (*params.posonly_params, *params.params))
    values: dict[str, object] = {}
    readable = True
    for arg in app.keywords:
        keyword = arg.keyword.value if arg.keyword is not None else ""
        if keyword in SPEC_KEYWORDS:
            value = _literal(arg.value, app.frame.scope, model, ints=keyword.endswith("nums"))
            if value is None:
                readable = False
            else:
                values[keyword] = value
    return StaticArgSpec(
        name=function.name.value,
        jit=jit,
        positional=positional,
        posonly=len(params.posonly_params),
        kwonly=tuple(p.name.value for p in params.kwonly_params),
        varargs=isinstance(params.star_arg, cst.Param),
        varkw=params.star_kwarg is not None,
        static_argnums=values.get("static_argnums"),  # type: ignore[arg-type]
        static_argnames=values.get("static_argnames"),  # type: ignore[arg-type]
        donate_argnums=values.get("donate_argnums"),  # type: ignore[arg-type]
        donate_argnames=values.get("donate_argnames"),  # type: ignore[arg-type]
        readable=readable,
        signature_known=signature_known,
        method=method,
    )


def target_def(app: JitApplication, model: SemanticModel) -> Optional[cst.FunctionDef]:
    if isinstance(app.target, cst.FunctionDef):
        return app.target
    if isinstance(app.target, cst.Name):
        for binding in model.bindings_at(app.target, app.frame.scope):
            if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
                return binding.node
    return None


def _decorator_name(decorator: cst.Decorator) -> str:
    expr = decorator.decorator
    if isinstance(expr, cst.Call):
        expr = expr.func
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    return "?"


def _literal(expr: cst.BaseExpression, scope: Scope, model: SemanticModel, ints: bool,
             depth: int = 0):
    """An int / tuple of ints (ints=True) or a str / tuple of str, as jax normalises them."""
    if depth > 3:
        return None
    if isinstance(expr, cst.Name):
        if expr.value == "None":
            return None
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "assign" and binding.value is not None:
            return _literal(binding.value, binding.scope, model, ints, depth + 1)
        return None
    single = _scalar(expr, ints)
    if single is not None:
        return (single,)
    if isinstance(expr, (cst.Tuple, cst.List)):
        items = []
        for element in expr.elements:
            if isinstance(element, cst.StarredElement):
                return None
            value = _scalar(element.value, ints)
            if value is None:
                return None
            items.append(value)
        return tuple(items)
    return None


def _scalar(expr: cst.BaseExpression, ints: bool):
    if ints:
        if isinstance(expr, cst.Integer):
            return int(expr.evaluated_value)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) \
                and isinstance(expr.expression, cst.Integer):
            return -int(expr.expression.evaluated_value)
        return None
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


# ---------------------------------------------------------------------------- classes
@dataclass(frozen=True)
class ClassInfo:
    """How instances of a class hash.  verdict: unhashable | value | identity | unknown | inherit."""

    name: str
    verdict: str
    base: Optional[str] = None  # for "inherit": the single base's qualified name
    why: str = ""  # for "unhashable": "dataclass" (eq=True, not frozen) or "eq" (__eq__, no __hash__)


def class_info(cls: cst.ClassDef, scope: Scope, model: SemanticModel,
               module_name: Optional[str] = None, is_package: bool = False) -> ClassInfo:
    name = cls.name.value
    if cls.keywords:  # metaclass=...: anything goes
        return ClassInfo(name, UNKNOWN)
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    defined: dict[str, str] = {}  # name -> "def" | "none" | "value"
    for statement in body:
        if isinstance(statement, cst.FunctionDef):
            defined[statement.name.value] = "def"
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            is_none = isinstance(small.value, cst.Name) and small.value.value == "None"
                            defined[target.target.value] = "none" if is_none else "value"
    if "__new__" in defined:
        return ClassInfo(name, UNKNOWN)
    dataclass_args: Optional[dict[str, bool]] = None
    for decorator in cls.decorators:
        expr = decorator.decorator
        call = expr if isinstance(expr, cst.Call) else None
        qualname = model.qualified_name(call.func if call else expr, scope)
        if qualname not in DATACLASS:
            return ClassInfo(name, UNKNOWN)  # another decorator may add __eq__/__hash__
        dataclass_args = {"eq": True, "frozen": False, "unsafe_hash": False}
        for arg in (call.args if call else ()):
            if arg.keyword is None:
                return ClassInfo(name, UNKNOWN)
            if arg.keyword.value in dataclass_args:
                if not (isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False")):
                    return ClassInfo(name, UNKNOWN)
                dataclass_args[arg.keyword.value] = arg.value.value == "True"
    own, why = INHERIT, ""  # what the class body and decorator decide on their own
    if defined.get("__hash__") == "none":
        own, why = UNHASHABLE, "eq"
    elif defined.get("__hash__") in ("def", "value"):
        own = VALUE
    elif dataclass_args is not None and dataclass_args["unsafe_hash"]:
        own = VALUE
    elif dataclass_args is not None and dataclass_args["eq"]:
        own, why = (VALUE, "") if dataclass_args["frozen"] else (UNHASHABLE, "dataclass")
    elif "__eq__" in defined:
        own, why = UNHASHABLE, "eq"  # __eq__ without __hash__ sets __hash__ = None
    bases = [arg for arg in cls.bases if not (isinstance(arg.value, cst.Name) and arg.value.value == "object")]
    if not bases:
        return ClassInfo(name, IDENTITY if own == INHERIT else own, why=why)
    # A base may bring a metaclass or __init_subclass__ that changes all this: the whole chain
    # must be resolvable within the linted tree, else the verdict is unknown.
    if len(bases) > 1 or bases[0].keyword is not None or bases[0].star:
        return ClassInfo(name, UNKNOWN)
    base = bases[0].value
    if isinstance(base, cst.Name):
        binding = model.single_binding(base.value, scope)
        if binding is not None and binding.kind == "class":
            return ClassInfo(name, own, f"{module_name or '?'}.{base.value}", why)
    qualname = model.qualified_name(base, scope)
    if qualname is None:
        return ClassInfo(name, UNKNOWN)
    return ClassInfo(name, own, absolute(qualname, module_name, is_package), why)


# ---------------------------------------------------------------------------- modules
def module_name_for(path: str) -> tuple[str, bool]:
    """(dotted module name, is_package) from a path and the ``__init__.py`` files above it."""
    p = Path(path).absolute()
    is_package = p.stem == "__init__"
    parts = [] if is_package else [p.stem]
    directory = p.parent
    while (directory / "__init__.py").is_file() and directory.name.isidentifier():
        parts.insert(0, directory.name)
        if directory.parent == directory:
            break
        directory = directory.parent
    return ".".join(parts) or p.stem, is_package


def absolute(qualname: str, module_name: Optional[str], is_package: bool) -> str:
    """Resolve a relative import name (``..mod.f``) against the importing module."""
    if not qualname.startswith("."):
        return qualname
    dots = len(qualname) - len(qualname.lstrip("."))
    rest = qualname[dots:]
    parts = (module_name or "").split(".") if module_name else []
    if not is_package:
        parts = parts[:-1]
    if dots > 1:
        parts = parts[: len(parts) - (dots - 1)] if dots - 1 <= len(parts) else []
    return ".".join([*parts, rest] if rest else parts)


@dataclass(frozen=True)
class JittedFunction:
    name: str  # the module-level name callers import
    spec: StaticArgSpec


@dataclass(frozen=True)
class ModuleSummary:
    """What one module shows other modules.  Deterministic and picklable."""

    module: str
    path: str
    functions: tuple[JittedFunction, ...] = ()
    classes: tuple[ClassInfo, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()  # module-level ``from x import y as z``: (z, x.y)
    imports: tuple[str, ...] = ()  # every imported qualified name, absolute
    uses_jit: bool = False
    static_jit: bool = False  # some jit here has static arguments (its calls may need classes)

    def function(self, name: str) -> Optional[StaticArgSpec]:
        return next((f.spec for f in self.functions if f.name == name), None)

    def cls(self, name: str) -> Optional[ClassInfo]:
        return next((c for c in self.classes if c.name == name), None)

    def alias(self, name: str) -> Optional[str]:
        return next((target for local, target in self.aliases if local == name), None)


def summarize(model: SemanticModel, applications: Iterable[JitApplication], path: str,
              is_package: bool = False) -> ModuleSummary:
    module_name = model.module_name or Path(path).stem
    module_scope = model.module_scope
    functions: dict[str, StaticArgSpec] = {}
    apps = list(applications)
    static_jit = False
    for app in apps:
        spec = module_level_name_and_spec(app, model)
        if spec is not None:
            functions[spec[0]] = spec[1]
        static_jit = static_jit or app.jit.qualname in FILTERING_JIT_FUNCTIONS or any(
            a.keyword is not None and a.keyword.value.startswith("static_") for a in app.keywords)
    classes = []
    for cls, frame in model.classes.items():
        if frame.scope is module_scope:
            classes.append(class_info(cls, module_scope, model, module_name, is_package))
    aliases, imports = [], set()
    for scope in _scopes(model):
        for name, bindings in scope.bindings.items():
            for binding in bindings:
                if binding.kind == "import" and binding.imported:
                    target = absolute(binding.imported, module_name, is_package)
                    imports.add(target)
                    if scope is module_scope and len(bindings) == 1 and name not in functions:
                        aliases.append((name, target))
    return ModuleSummary(
        module=module_name,
        path=path,
        functions=tuple(JittedFunction(n, s) for n, s in sorted(functions.items())),
        classes=tuple(sorted(classes, key=lambda c: c.name)),
        aliases=tuple(sorted(aliases)),
        imports=tuple(sorted(imports)),
        uses_jit=bool(apps),
        static_jit=static_jit,
    )


def _scopes(model: SemanticModel) -> Iterator[Scope]:
    seen = set()
    for scope in model.scope_of.values():
        if id(scope) not in seen:
            seen.add(id(scope))
            yield scope


def module_level_name_and_spec(app: JitApplication, model: SemanticModel) -> Optional[tuple[str, StaticArgSpec]]:
    """``@jit def name`` or ``name = jit(f, ...)`` at module level: (name, spec)."""
    if app.frame.scope is not model.module_scope:
        return None
    spec = spec_of(app, model)
    if spec is None:
        return None
    if isinstance(app.target, cst.FunctionDef):
        return app.target.name.value, spec
    statement = model.parent_statement.get(app.anchor)
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
            and isinstance(statement.targets[0].target, cst.Name):
        return statement.targets[0].target.value, spec
    return None


# ---------------------------------------------------------------------------- the index
@dataclass
class ProjectIndex:
    """Summaries of the linted tree by dotted module name; unknown names stay unknown.

    ``paths`` lists every linted module; a module without a summary yet (its file never needed
    parsing) is summarised on first use.  ``used`` records which modules a lint looked at.
    """

    summaries: dict[str, ModuleSummary] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)
    used: set[str] = field(default_factory=set, compare=False)
    lazy: bool = field(default=True, compare=False)  # summarise unparsed modules on first use
    _names: Optional[tuple[str, ...]] = field(default=None, compare=False, repr=False)
    _below: Optional[dict[str, list[str]]] = field(default=None, compare=False, repr=False)

    def module(self, name: str) -> Optional[ModuleSummary]:
        summary = self.summaries.get(name)
        if summary is None and self.lazy and name in self.paths:
            summary = summarize_path(self.paths[name])
            self.summaries[name] = summary  # type: ignore[assignment]
        if summary is not None:
            self.used.add(name)
        return summary

    def _split(self, qualname: str) -> Iterator[tuple[ModuleSummary, str]]:
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module in self.paths or module in self.summaries:
                summary = self.module(module)
                if summary is not None:
                    yield summary, ".".join(parts[cut:])
                return

    def function(self, qualname: str) -> Optional[StaticArgSpec]:
        if not self.function_names():
            return None  # no jitted function anywhere: nothing to follow
        return self._follow(qualname, ModuleSummary.function)

    def cls(self, qualname: str) -> Optional[ClassInfo]:
        return self._follow(qualname, ModuleSummary.cls)

    def _follow(self, qualname: str, get, depth: int = 0):
        """``get(summary, name)`` in the module ``qualname`` names, through re-exports."""
        for summary, rest in self._split(qualname):
            found = get(summary, rest)
            if found is not None:
                return found
            target = summary.alias(rest)
            if target is not None and depth < 4:
                return self._follow(target, get, depth + 1)
        return None

    def function_names(self) -> tuple[str, ...]:
        """Names of the jitted functions the index knows (the prefilter's extra words)."""
        if self._names is None:
            names = {f.name for summary in self.summaries.values() for f in summary.functions}
            self._names = tuple(sorted(names))
        return self._names

    def provides(self, qualname: str, own_module: str, jitted_only: bool = False) -> bool:
        """Does an import of ``qualname`` reach another linted module?  With ``jitted_only``:
        a module object with jitted functions (names imported from it are checked by
        ``function()``)."""
        def counts(module: str) -> bool:
            if module == own_module:
                return False
            summary = self.summaries.get(module)
            return not jitted_only or (summary is not None and bool(summary.functions))

        # The module itself, or a package above linted modules, is imported.
        if qualname in self.paths and counts(qualname):
            return True
        if any(counts(module) for module in self._packages().get(qualname, ())):
            return True
        if not jitted_only:  # a name from a linted module
            parts = qualname.split(".")
            for cut in range(len(parts) - 1, 0, -1):
                module = ".".join(parts[:cut])
                if module in self.paths and counts(module):
                    return True
        return False

    def _packages(self) -> dict[str, list[str]]:
        """Each dotted prefix -> the linted modules below it (built once: paths are fixed)."""
        if self._below is None:
            below: dict[str, list[str]] = {}
            for module in self.paths:
                parts = module.split(".")
                for cut in range(1, len(parts)):
                    below.setdefault(".".join(parts[:cut]), []).append(module)
            self._below = below
        return self._below


def summarize_path(path: str) -> Optional[ModuleSummary]:
    """Parse a file only to summarise it (its classes, for the index); None if unreadable."""
    from jitlint.engine import read_source  # (engine imports this module)
    from jitlint.jitnames import JitResolver
    from jitlint.semantic import build_model

    try:
        module = cst.parse_module(read_source(path))
    except Exception:
        return None
    name, is_package = module_name_for(path)
    model = build_model(module, name)
    return summarize(model, JitResolver(model).applications(), path, is_package)


def resolve_class(expr: cst.BaseExpression, scope: Scope, model: SemanticModel,
                  index: Optional[ProjectIndex], module_name: Optional[str], is_package: bool,
                  _depth: int = 0) -> Optional[tuple[str, str, str]]:
    """(class name, final verdict, why) of the class ``expr`` names, following single bases."""
    if _depth > 6:
        return None
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "class":
            assert isinstance(binding.node, cst.ClassDef)
            info = class_info(binding.node, binding.scope, model, None)
            base = next((a.value for a in binding.node.bases
                         if not (isinstance(a.value, cst.Name) and a.value.value == "object")), None)
            return _finish(info, base, binding.scope, model, index, module_name, is_package, _depth)
    if index is None:
        return None
    qualname = model.qualified_name(expr, scope)
    if qualname is None:
        return None
    return _verdict_from_index(absolute(qualname, module_name, is_package), index, _depth)


def _finish(info: ClassInfo, base: Optional[cst.BaseExpression], scope: Scope, model: SemanticModel,
            index, module_name, is_package, depth) -> Optional[tuple[str, str, str]]:
    if info.verdict == UNKNOWN:
        return None
    if base is None:
        return info.name, info.verdict, info.why
    resolved = resolve_class(base, scope, model, index, module_name, is_package, depth + 1)
    if resolved is None:
        return None
    if info.verdict != INHERIT:
        return info.name, info.verdict, info.why
    return info.name, resolved[1], resolved[2]


def _verdict_from_index(qualname: str, index: ProjectIndex, depth: int) -> Optional[tuple[str, str, str]]:
    first = info = index.cls(qualname)
    verdict = None
    for _ in range(6 - min(depth, 6)):
        if info is None or info.verdict == UNKNOWN:
            return None
        if verdict is None and info.verdict != INHERIT:
            verdict = (info.verdict, info.why)
        if info.base is None:  # the chain ends in object: every link is known
            assert first is not None
            return qualname.rsplit(".", 1)[-1], *(verdict or (IDENTITY, ""))
        info = index.cls(info.base)
    return None


Jittable = Union[cst.FunctionDef, cst.BaseExpression]
__all__ = ["StaticArgSpec", "ClassInfo", "ModuleSummary", "ProjectIndex", "JittedFunction",
           "spec_of", "spec_errors", "class_info", "summarize", "module_name_for", "absolute",
           "resolve_class", "summarize_path"]
