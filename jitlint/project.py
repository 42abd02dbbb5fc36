"""The project: which module each file is, what one module tells the others, and the index
of them all.

``ModuleSummary`` is what one file tells the others: its dotted module name, its module-level
jitted functions with their specs, its classes' hashability and its re-exports.  It holds only
strings, ints, bools and tuples: deterministic and picklable (a result cache can key on it).
``ProjectIndex`` maps dotted names to summaries; files that import from the project are linted a
second time with it (see engine.lint_files).  Linting one file alone needs no index.
"""

from __future__ import annotations

import ast
import bisect
import functools
import os
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional, Sequence

import libcst as cst

from jitlint.annotated import without_variable_annotations
from jitlint.batches import ragged_loader_class, ragged_loop
from jitlint.callgraph import LIBRARIES, CallCollector, ModuleCalls
from jitlint.jaxfacts import LAX_CONTROL_FLOW_FUNCTION_PARAMS
from jitlint.jitnames import JIT_WORDS, JitApplication, JitResolver, may_name_jit
from jitlint.notebook import is_notebook
from jitlint.semantic import Binding, Scope, SemanticModel
from jitlint.source import read_source
from jitlint.staticargs import (ARGNUM_JITS, HASH_ONLY, IDENTITY, INHERIT, SPEC_KEYWORDS, UNHASHABLE, UNKNOWN, VALUE,
                                ClassInfo, StaticArgSpec, class_info, literal, spec_of)
from jitlint.walk import iter_nodes


# ---------------------------------------------------------------------------- module names
def module_name_for(path: str) -> tuple[str, bool]:
    """(dotted module name, is_package) from a path and the ``__init__.py`` files above it."""
    p = Path(path).absolute()
    is_package = p.stem == "__init__"
    parts = [*_package_of(p.parent)] if is_package else [*_package_of(p.parent), p.stem]
    return ".".join(parts) or p.stem, is_package


@functools.lru_cache(maxsize=4096)
def _package_of(directory: Path) -> tuple[str, ...]:
    """The dotted package a directory is (its names up the ``__init__.py`` chain); asked for
    every file of a run, so each directory's chain is read from the disk once per process."""
    parts: list[str] = []
    while (directory / "__init__.py").is_file() and directory.name.isidentifier():
        parts.insert(0, directory.name)
        if directory.parent == directory:
            break
        directory = directory.parent
    return tuple(parts)


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
class JitWrapper:
    """A module-level function that returns a fresh jit of its first parameter (``factory``
    False: ``def compiled(fn, **kw): return jax.jit(fn, **kw)``) or returns jit itself with
    options bound (``factory`` True: ``def my_jit(**kw): return partial(jax.jit, **kw)``)."""

    name: str
    jit: str  # the qualified name of the jit it applies
    keywords: tuple[tuple[str, str], ...] = ()  # (keyword, code of its literal value, or "...")
    factory: bool = False


@dataclass(frozen=True)
class ClassMembers:
    """What an attribute of a class's instances is, for a module that reads it on an instance
    (``jax.jit(model.apply)``): its methods by kind, the names it assigns (on ``self``, or in
    its body) that shadow or are no methods, and its bases (absolute qualified names; a base
    the module cannot name makes ``bases`` end in "?")."""

    name: str
    methods: tuple[tuple[str, str], ...] = ()  # (name, "method" | "classmethod" | "staticmethod" | "property")
    assigned: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()

    def member(self, name: str) -> Optional[str]:
        """The kind of method ``name`` is, "attribute" for an assigned name, None when the class
        itself does not define it."""
        if name in self.assigned:
            return "attribute"
        return next((kind for method, kind in self.methods if method == name), None)


@dataclass(frozen=True)
class ModuleSummary:
    """What one module shows other modules.  Deterministic and picklable."""

    module: str
    path: str
    functions: tuple[JittedFunction, ...] = ()
    classes: tuple[ClassInfo, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()  # module-level ``from x import y as z``: (z, x.y)
    uses_jit: bool = False
    wrappers: tuple[JitWrapper, ...] = ()
    # The cheap summary of a module that names no jit (summarize_path) names its classes here
    # instead of describing them in ``classes``: ProjectIndex.cls then asks for the full one.
    unparsed_classes: tuple[str, ...] = ()
    members: tuple[ClassMembers, ...] = ()  # its module-level classes' members (ClassMembers)
    # Its module-level plain defs that run lax control flow with a body they define inside
    # (a lambda, a local def): (name, the lax function, ``lax.fori_loop``); eager_lax_helpers
    lax_helpers: tuple[tuple[str, str], ...] = ()

    # Its module-level names bound once, to a list, dict or set (a display or comprehension):
    # (name, "list" | "dict" | "set"); module_values
    values: tuple[tuple[str, str], ...] = ()
    # Its module-level generators (undecorated defs that yield) whose batches end with a
    # shorter one whatever they are passed (batches.ragged_loop, no guard: JIT504); the cheap
    # summary names its generators in ``unparsed_generators`` instead (ProjectIndex then asks
    # for the full one, as for ``unparsed_classes``)
    ragged_generators: tuple[str, ...] = ()
    unparsed_generators: tuple[str, ...] = ()
    # What its module-level jitted defs read, at trace time, of other modules' names:
    # (jitted def, ``settings.scale``); attribute_reads
    global_reads: tuple[tuple[str, str], ...] = ()

    def reads(self, name: str) -> Optional[tuple[str, ...]]:
        found = tuple(read for function, read in self.global_reads if function == name)
        return found or None

    def lax_helper(self, name: str) -> Optional[str]:
        return next((control for helper, control in self.lax_helpers if helper == name), None)

    def value(self, name: str) -> Optional[str]:
        return next((kind for bound, kind in self.values if bound == name), None)

    def ragged(self, name: str) -> Optional[bool]:
        return True if name in self.ragged_generators else None

    def generator(self, name: str) -> Optional[bool]:
        return True if name in self.ragged_generators or name in self.unparsed_generators else None

    def class_members(self, name: str) -> Optional[ClassMembers]:
        return next((c for c in self.members if c.name == name), None)

    def wrapper(self, name: str) -> Optional[JitWrapper]:
        return next((w for w in self.wrappers if w.name == name), None)

    def function(self, name: str) -> Optional[StaticArgSpec]:
        return next((f.spec for f in self.functions if f.name == name), None)

    def cls(self, name: str) -> Optional[ClassInfo]:
        return next((c for c in self.classes if c.name == name), None)

    def alias(self, name: str) -> Optional[str]:
        return next((target for local, target in self.aliases if local == name), None)


def summarize(model: SemanticModel, applications: Iterable[JitApplication], path: str,
              is_package: bool = False, resolver: Optional[JitResolver] = None) -> ModuleSummary:
    module_name = model.module_name or Path(path).stem
    module_scope = model.module_scope
    functions: dict[str, StaticArgSpec] = {}
    apps = list(applications)
    reads: set[tuple[str, str]] = set()
    for app in apps:
        spec = module_level_name_and_spec(app, model)
        if spec is not None:
            functions[spec[0]] = spec[1]
            if isinstance(app.target, cst.FunctionDef):
                reads.update((spec[0], absolute(read, module_name, is_package))
                             for read in attribute_reads(model, app.target))
    classes = []
    for cls, frame in model.classes.items():
        if frame.scope is module_scope:
            info = class_info(cls, module_scope, model, module_name)
            if info.base is not None:
                info = replace(info, base=absolute(info.base, module_name, is_package))
            classes.append(info)
    aliases = [(name, absolute(bindings[0].imported, module_name, is_package))
               for name, bindings in module_scope.bindings.items()
               if len(bindings) == 1 and bindings[0].kind == "import" and bindings[0].imported
               and name not in functions]
    wrappers = _wrappers(model, resolver or JitResolver(model))
    members = tuple(class_members(cls, model, module_name, is_package)
                    for cls, frame in model.classes.items() if frame.scope is module_scope)
    return ModuleSummary(
        module=module_name,
        path=path,
        functions=tuple(JittedFunction(n, s) for n, s in sorted(functions.items())),
        classes=tuple(sorted(classes, key=lambda c: c.name)),
        aliases=tuple(sorted(aliases)),
        uses_jit=bool(apps),
        wrappers=tuple(wrappers),
        members=tuple(sorted(members, key=lambda c: c.name)),
        global_reads=tuple(sorted(reads)),
    )


def attribute_reads(model: SemanticModel, function: cst.FunctionDef) -> dict[str, cst.Attribute]:
    """``settings.scale`` in the body of ``function``, ``settings`` imported (a module, or a
    class of another module): each name read (not called, not written; libraries left out)
    with its first read.  Jit reads it once, at the first trace: a later
    ``settings.scale = 3.0`` leaves the compiled function with the old value (JIT601)."""
    scope = model.scope_of[function]
    called: set[int] = set()
    found: dict[str, cst.Attribute] = {}
    bindings: dict[str, Optional[Binding]] = {}
    for node in iter_nodes(function.body):
        if isinstance(node, cst.Call):
            called.add(id(node.func))
        elif isinstance(node, (cst.AssignTarget, cst.AugAssign)):
            called.add(id(node.target))
        elif isinstance(node, cst.Attribute) and id(node) not in called and isinstance(node.value, cst.Name):
            name = node.value.value
            if name not in bindings:
                bindings[name] = model.single_binding(name, scope)
            binding = bindings[name]
            if binding is None or binding.kind != "import" or not binding.imported:
                continue
            qualname = f"{binding.imported}.{node.attr.value}"
            if not qualname.startswith(LIBRARIES) and qualname not in found:
                found[qualname] = node
    return found


METHOD_DECORATORS = {"staticmethod": "staticmethod", "classmethod": "classmethod", "property": "property",
                     "functools.cached_property": "property"}


def class_members(cls: cst.ClassDef, model: SemanticModel, module_name: str,
                  is_package: bool) -> ClassMembers:
    """The ClassMembers of one class of ``model``."""
    scope = model.classes[cls].scope
    methods, assigned = [], set()
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.FunctionDef):
            kind = "method"
            for decorator in statement.decorators:
                expr = decorator.decorator
                name = model.qualified_name(expr, scope) or (expr.value if isinstance(expr, cst.Name) else "")
                if name in METHOD_DECORATORS:
                    kind = METHOD_DECORATORS[name]
                elif isinstance(expr, cst.Attribute) and expr.attr.value in ("setter", "getter", "deleter"):
                    kind = "property"
            methods.append((statement.name.value, kind))
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                    [small.target] if isinstance(small, cst.AnnAssign) else []
                assigned.update(t.value for t in targets if isinstance(t, cst.Name))
    for node in iter_nodes(cls.body):  # self.name = ... in its methods
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            assigned.update(t.attr.value for t in targets if isinstance(t, cst.Attribute)
                            and isinstance(t.value, cst.Name) and t.value.value == "self")
    bases = []
    for arg in cls.bases:
        if arg.keyword is not None or arg.star:
            bases.append("?")
            continue
        qualname = model.qualified_name(arg.value, scope)
        local = model.single_binding(arg.value.value, scope) if isinstance(arg.value, cst.Name) else None
        if local is not None and local.kind == "class":
            qualname = f"{module_name}.{arg.value.value}"
        bases.append(absolute(qualname, module_name, is_package) if qualname else "?")
    return ClassMembers(cls.name.value, tuple(sorted(methods)), tuple(sorted(assigned)), tuple(bases))


def _wrappers(model: SemanticModel, resolver: JitResolver) -> list[JitWrapper]:
    """The module-level jit wrappers and decorator factories (JitResolver.wrapper_shape)."""
    found = []
    for statement in model.module.body:
        if not isinstance(statement, cst.FunctionDef) \
                or model.single_binding(statement.name.value, model.module_scope) is None:
            continue
        shape = resolver.wrapper_shape(statement)
        if shape is None:
            continue
        jit, factory = shape
        keywords = []
        for arg in jit.keywords:
            assert arg.keyword is not None
            code = "..."
            if arg.keyword.value in SPEC_KEYWORDS:
                value = literal(arg.value, model.scope_of[statement], model,
                                ints=arg.keyword.value.endswith("nums"))
                code = "..." if value is None else repr(value)
            keywords.append((arg.keyword.value, code))
        found.append(JitWrapper(statement.name.value, jit.qualname, tuple(keywords), factory))
    return found


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
    left_out: dict[str, str] = field(default_factory=dict, compare=False)  # path -> why
    lazy: bool = field(default=True, compare=False)  # summarise unparsed modules on first use
    # How functions whose callers a file's findings rest on run, from the project's call graph
    # (callgraph.ProjectCalls): qualified name -> (how, evidence); only the ones it shows.
    callers: dict[str, tuple[str, str]] = field(default_factory=dict, compare=False)
    # Module-level functions that traced code of other modules calls with traced arguments
    # (their FileResult.traced_calls joined, engine.traced_calls): qualified name where the
    # def is -> (traced positions, traced keywords, the caller in words)
    traced: dict[str, tuple[tuple[int, ...], tuple[str, ...], str]] = field(default_factory=dict, compare=False)
    _names: Optional[tuple[str, ...]] = field(default=None, compare=False, repr=False)
    _wrapper_names: Optional[tuple[str, ...]] = field(default=None, compare=False, repr=False)
    _lax_helper_names: Optional[tuple[str, ...]] = field(default=None, compare=False, repr=False)
    _generator_names: Optional[tuple[str, ...]] = field(default=None, compare=False, repr=False)
    _reading_names: Optional[frozenset[str]] = field(default=None, compare=False, repr=False)
    installed_missing: set[str] = field(default_factory=set, compare=False, repr=False)

    def module(self, name: str, classes: bool = False) -> Optional[ModuleSummary]:
        """The summary of module ``name``; with ``classes``, one that describes its classes
        (else None: the index is not lazy and nobody made the full summary)."""
        summary = self.summaries.get(name)
        if lacks(summary, classes) and self.lazy and name in self.paths:
            summary, failure = summarise_isolated(self.paths[name], classes)
            if failure is not None:  # its own lint reports a bug; here it is only unknown
                self.left_out[self.paths[name]] = failure.reason
            self.summaries[name] = summary  # type: ignore[assignment]
        if lacks(summary, classes):
            return None
        if summary is not None:
            self.used.add(name)
        return summary

    def _split(self, qualname: str, classes: bool = False,
               installed: bool = False) -> Iterator[tuple[ModuleSummary, str]]:
        """(summary, the rest of the name) for the module of the project ``qualname`` is in;
        with ``installed``, else for the installed package's module it is in (read from its
        source, never imported: jitlint/installed.py)."""
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module in self.paths or module in self.summaries:
                rest = ".".join(parts[cut:])
                summary = self.module(module)
                if classes and summary is not None and (rest in summary.unparsed_classes
                                                        or rest in summary.unparsed_generators):
                    summary = self.module(module, classes=True)
                if summary is not None:
                    yield summary, ".".join(parts[cut:])
                return
            if installed:  # the longest installed module first, as for the project's
                summary = self._installed(module)
                if summary is not None:
                    yield summary, ".".join(parts[cut:])
                    return

    def _installed(self, module: str) -> Optional[ModuleSummary]:
        """The full summary of an installed module, made on first use (whatever ``lazy`` says:
        only jit-named wrappers and classes whose methods are jitted are looked up there), and
        kept with the project's so that a cached result notices the file change."""
        if module in self.installed_missing:
            return None
        from jitlint.installed import module_source

        path = module_source(module)
        summary = summarise_isolated(path, classes=True)[0] if path is not None else None
        if summary is None or summary.module != module:
            self.installed_missing.add(module)
            return None
        self.paths[module] = path
        self.summaries[module] = summary
        self.used.add(module)
        return summary

    def reexports(self, qualname: str) -> tuple[str, ...]:
        """What an imported name stands for when its module re-exports it (``from .steps
        import shift`` in ``pkg/__init__.py``: ``pkg.shift`` -> ``pkg.steps.shift``)."""
        return tuple(target for summary, rest in self._split(qualname)
                     if (target := summary.alias(rest)) is not None)

    def definition(self, qualname: str, _depth: int = 0) -> Optional[str]:
        """Where the module-level name ``qualname`` is defined in the project, through
        re-exports (``pkg.relu`` -> ``pkg.ops.relu``); None outside the project or for an
        attribute of a module-level name (a method)."""
        for summary, rest in self._split(qualname):
            target = summary.alias(rest)
            if target is not None:
                return self.definition(target, _depth + 1) if _depth < 4 else None
            return f"{summary.module}.{rest}" if "." not in rest else None
        return None

    def traced_in(self, module: str) -> bool:
        """Whether traced code of another module calls a function of ``module`` with traced
        arguments (``traced``)."""
        return any(name.rpartition(".")[0] == module for name in self.traced)

    def function(self, qualname: str) -> Optional[StaticArgSpec]:
        if not self.function_names():
            return None  # no jitted function anywhere: nothing to follow
        return self._follow(qualname, ModuleSummary.function)

    def cls(self, qualname: str) -> Optional[ClassInfo]:
        return self._follow(qualname, ModuleSummary.cls, classes=True)

    def class_members(self, qualname: str) -> Optional[ClassMembers]:
        """The members of the class ``qualname`` names, in the project or an installed package."""
        return self._follow(qualname, ModuleSummary.class_members, classes=True, installed=True)

    def _follow(self, qualname: str, get, depth: int = 0, classes: bool = False, installed: bool = False):
        """``get(summary, name)`` in the module ``qualname`` names, through re-exports."""
        for summary, rest in self._split(qualname, classes, installed):
            found = get(summary, rest)
            if found is not None:
                return found
            target = summary.alias(rest)
            if target is not None and depth < 4:
                return self._follow(target, get, depth + 1, classes, installed)
        return None

    def wrapper(self, qualname: str) -> Optional[JitWrapper]:
        """The jit wrapper ``qualname`` names in another module, through re-exports; in an
        installed package only when its name says jit (``my_jit``, ``compiled_pjit``)."""
        if self.wrapper_names():
            found = self._follow(qualname, ModuleSummary.wrapper)
            if found is not None:
                return found
        if any(word in qualname.rsplit(".", 1)[-1] for word in JIT_WORDS):
            return self._follow(qualname, ModuleSummary.wrapper, installed=True)
        return None

    def lax_helper(self, qualname: str) -> Optional[str]:
        """The lax function the project's def ``qualname`` runs with a body of its own
        (ModuleSummary.lax_helpers), through re-exports."""
        if not self.lax_helper_names():
            return None
        return self._follow(qualname, ModuleSummary.lax_helper)

    def ragged_generator(self, qualname: str) -> bool:
        """Whether ``qualname`` is a generator of the project whose batches end with a shorter
        one (ModuleSummary.ragged_generators; its module parsed on first use)."""
        return bool(self.generator_names()) and self._follow(qualname, ModuleSummary.ragged, classes=True) is not None

    def may_be_ragged(self, qualname: str) -> bool:
        """Whether ``qualname`` is a generator of the project, without parsing anything (the
        decision which files need the index)."""
        return bool(self.generator_names()) and qualname.rpartition(".")[2] in self.generator_names() \
            and self._follow(qualname, ModuleSummary.generator) is not None

    def generator_names(self) -> tuple[str, ...]:
        if self._generator_names is None:
            self._generator_names = tuple(sorted({name for summary in self.summaries.values() if summary is not None
                                                  for name in (*summary.ragged_generators,
                                                               *summary.unparsed_generators)}))
        return self._generator_names

    def global_reads(self, qualname: str) -> tuple[str, ...]:
        """What the jitted function ``qualname`` of the project reads of other modules' names
        at trace time (ModuleSummary.global_reads), through re-exports."""
        if not self.reads_anything():
            return ()
        return self._follow(qualname, ModuleSummary.reads) or ()

    def reads_anything(self) -> bool:
        return bool(self.reading_names())

    def reading_names(self) -> frozenset[str]:
        """Names of the project's jitted functions that read other modules' names."""
        if self._reading_names is None:
            self._reading_names = frozenset(function for summary in self.summaries.values() if summary is not None
                                            for function, _ in summary.global_reads)
        return self._reading_names

    def value(self, qualname: str) -> Optional[str]:
        """What the module-level name ``qualname`` of the project is bound to, when it is a
        list, dict or set (ModuleSummary.values), through re-exports."""
        return self._follow(qualname, ModuleSummary.value)

    def lax_helper_names(self) -> tuple[str, ...]:
        """Names of the project's lax helpers (more prefilter words, as wrapper_names)."""
        if self._lax_helper_names is None:
            self._lax_helper_names = tuple(sorted({name for summary in self.summaries.values()
                                                   if summary is not None for name, _ in summary.lax_helpers}))
        return self._lax_helper_names

    def wrapper_names(self) -> tuple[str, ...]:
        """Names of the project's jit wrappers (more prefilter words: a file may use one
        without saying jit)."""
        if self._wrapper_names is None:
            self._wrapper_names = tuple(sorted({w.name for summary in self.summaries.values()
                                                if summary is not None for w in summary.wrappers}))
        return self._wrapper_names

    def function_names(self) -> tuple[str, ...]:
        """Names of the jitted functions the index knows with static arguments, or jax.jit's
        traced ones (the prefilter's extra words: JIT807 checks what a call gives there)."""
        if self._names is None:
            names = {f.name for summary in self.summaries.values() for f in summary.functions
                     if f.spec.has_static_arguments or f.spec.jit in ARGNUM_JITS}
            self._names = tuple(sorted(names))
        return self._names


def summarize_path(path: str, classes: bool = False) -> Optional[ModuleSummary]:
    """Parse a file only to summarise it for the index; None if it cannot be read or parsed
    (its own lint reports that).

    A module that names no jit (most of those other files import from) has no jitted
    functions or wrappers to tell: its re-exports come from Python's ``ast``, about ten times
    cheaper than libcst, and its classes are left unknown unless ``classes`` asks for them."""
    from jitlint.semantic import build_model

    try:
        data = read_source(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes etc.
            tree = ast.parse(data)
    except Exception:  # unreadable, undecodable, not Python, too deep
        return None
    # latin-1 maps every byte to one character: enough for the text test of ASCII words
    cheap = cheap_summary(tree, data.decode("latin-1"), path)
    if cheap is not None and not (classes and (cheap.unparsed_classes or cheap.unparsed_generators)):
        return cheap
    name, is_package = module_name_for(path)
    try:
        module = without_variable_annotations(cst.parse_module(data), data.decode("latin-1"))
    except Exception:  # too deep for libcst's parser, or syntax it does not know yet
        return None
    model = build_model(module, name)
    summary = summarize(model, JitResolver(model).applications(), path, is_package)
    return with_ast_facts(summary, tree, data.decode("latin-1"), module)


def with_ast_facts(summary: ModuleSummary, tree: Optional[ast.Module], text: str,
                   module: Optional[cst.Module] = None) -> ModuleSummary:
    """``summary`` with what is read from the module's ``ast``: its lax_helpers and values;
    with its libcst ``module``, its ragged generators (the defs the ``ast`` shows yield)."""
    if tree is None:
        return summary
    helpers = eager_lax_helpers(tree, text, summary.aliases)
    values = module_values(tree, text)
    ragged: tuple[str, ...] = ()
    generators = _generators(tree, text) if module is not None else {}
    if generators:
        ragged = tuple(sorted(
            statement.name.value for statement in module.body  # type: ignore[union-attr]
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef))
            and statement.name.value in generators and _ragged_batches(statement)))
    if not (helpers or values or ragged):
        return summary
    return replace(summary, lax_helpers=helpers, values=values, ragged_generators=ragged)


def cheap_summary(tree: ast.Module, text: str, path: str,
                  scan: Optional[ModuleScan] = None) -> Optional[ModuleSummary]:
    """The summary of a module that reaches no jit, from its ``ast`` (None if it may reach
    one: ModuleScan.reaches_jit): no jitted functions or wrappers, its re-exports, its classes
    by name only.  ``scan`` is the tree's ModuleScan when the caller has it."""
    name, is_package = module_name_for(path)
    if any(word in text for word in JIT_WORDS) and \
            (scan or scan_module(tree, name, is_package)).reaches_jit():
        return None
    bound, class_names = _module_bindings(tree)
    aliases = _aliases(bound, name, is_package)
    return ModuleSummary(module=name, path=path, aliases=aliases, unparsed_classes=class_names,
                         lax_helpers=eager_lax_helpers(tree, text, aliases),
                         values=module_values(tree, text, bound),
                         unparsed_generators=tuple(sorted(_generators(tree, text))))


def _ragged_batches(statement: cst.CSTNode) -> bool:
    """A generator def or loader class whose batches end with a shorter one, unguarded."""
    if isinstance(statement, cst.FunctionDef):
        found = ragged_loop(statement)
    elif isinstance(statement, cst.ClassDef):
        found = ragged_loader_class(statement)
    else:
        return False
    return found is not None and found.guard is None


_YIELD = ("yield ", "yield\n", "yield)")


def _generators(tree: ast.Module, text: str) -> dict[str, ast.AST]:
    """The module-level undecorated defs whose own body yields, and the classes whose
    ``__iter__`` does (hand-written loaders), by name."""
    lines = _lines_naming(text, _YIELD) if "yield" in text else []
    if not lines:
        return {}
    found = {}
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            iterate = next((m for m in statement.body if isinstance(m, ast.FunctionDef)
                            and m.name == "__iter__"), None)
            if iterate is None or iterate.decorator_list or not _spans_any(iterate, lines):
                continue
            body, name = iterate.body, statement.name
        elif isinstance(statement, ast.FunctionDef) and not statement.decorator_list \
                and _spans_any(statement, lines):
            body, name = statement.body, statement.name
        else:
            continue
        pending: list[ast.AST] = list(body)
        while pending:
            node = pending.pop()
            if isinstance(node, (ast.Yield, ast.YieldFrom)):
                found[name] = statement
                break
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                pending.extend(ast.iter_child_nodes(node))
    return found


_VALUE_KINDS = {ast.List: "list", ast.ListComp: "list", ast.Dict: "dict", ast.DictComp: "dict",
                ast.Set: "set", ast.SetComp: "set"}


def module_values(tree: ast.Module, text: str,
                  bound: Optional[dict[str, list[Optional[str]]]] = None) -> tuple[tuple[str, str], ...]:
    """ModuleSummary.values from Python's ``ast``: the module-level names (not dunders) that
    one statement of the module body binds, and nothing else in the module scope rebinds, to a
    list, dict or set: what another module that imports one passes is unhashable (JIT301).
    ``bound``: the module scope's bindings (_module_bindings) when the caller has them."""
    if "= [" not in text and "= {" not in text:  # the cheap text test first
        return ()
    candidates = {}
    for statement in tree.body:
        target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
            else statement.target if isinstance(statement, ast.AnnAssign) and statement.value is not None else None
        if isinstance(target, ast.Name) and not target.id.startswith("__") \
                and type(statement.value) in _VALUE_KINDS:  # type: ignore[union-attr]
            candidates[target.id] = _VALUE_KINDS[type(statement.value)]  # type: ignore[union-attr]
    if not candidates:
        return ()
    if bound is None:
        bound = _module_bindings(tree)[0]
    return tuple(sorted((name, kind) for name, kind in candidates.items() if len(bound.get(name, ())) == 1))


_LAX_LAST_NAMES = frozenset(name.rpartition(".")[2] for name in LAX_CONTROL_FLOW_FUNCTION_PARAMS)
# what a call of one looks like in the text (``map`` only qualified: the builtin is everywhere)
_LAX_WORDS = tuple(sorted(f"{name}(" if name != "map" else ".map(" for name in _LAX_LAST_NAMES))


def _lines_naming(text: str, words: Sequence[str]) -> list[int]:
    """The (1-based) lines where one of ``words`` occurs in ``text``, in order (``str.find``:
    a regular expression over every file of a run costs more than the rest of the summary)."""
    starts = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            starts.append(at)
            at = text.find(word, at + len(word))
    found, line, at = [], 1, 0
    for start in sorted(starts):
        line += text.count("\n", at, start)
        at = start
        found.append(line)
    return found


def _spans_any(statement: ast.stmt, lines: list[int]) -> bool:
    end = getattr(statement, "end_lineno", None) or statement.lineno
    k = bisect.bisect_left(lines, statement.lineno)
    return k < len(lines) and lines[k] <= end


def eager_lax_helpers(tree: ast.Module, text: str,
                      aliases: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """ModuleSummary.lax_helpers from Python's ``ast``: the module-level undecorated defs that
    call ``lax.fori_loop``/``while_loop``/``scan``/``cond``/``switch``/``map``
    (jaxfacts.LAX_CONTROL_FLOW_FUNCTION_PARAMS, the name resolved through the module's imports
    ``aliases``) with a lambda or a def of their own body as the traced function: each call
    of one traces and compiles that body again (JIT520 asks it of a call in another module's
    loop).  A text test first: most modules name none of them."""
    lines = _lines_naming(text, _LAX_WORDS)
    if not lines:
        return ()
    imported = dict(aliases)
    found = []
    for statement in tree.body:
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) or statement.decorator_list \
                or not _spans_any(statement, lines):
            continue
        own: list[ast.AST] = []  # its own nodes: not those of nested defs, lambdas or classes
        local_defs: set[str] = set()
        pending: list[ast.AST] = list(statement.body)
        while pending:
            node = pending.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local_defs.add(node.name)
                continue
            if isinstance(node, (ast.Lambda, ast.ClassDef)):
                continue
            own.append(node)
            pending.extend(ast.iter_child_nodes(node))
        for node in own:
            if not isinstance(node, ast.Call):
                continue
            dotted = _dotted_name(node.func)
            head, _, tail = dotted.partition(".")
            qualname = imported.get(head, "") + (f".{tail}" if tail else "") if head in imported else ""
            params = LAX_CONTROL_FLOW_FUNCTION_PARAMS.get(qualname)
            if params is None:
                continue
            positional = [arg for arg in node.args if not isinstance(arg, ast.Starred)]
            if any(index < len(positional) and (isinstance(positional[index], ast.Lambda) or (
                    isinstance(positional[index], ast.Name) and positional[index].id in local_defs))
                   for index, _ in params):
                found.append((statement.name, qualname.replace("jax.lax.", "lax.")))
                break
    return tuple(sorted(set(found)))


def _dotted_name(expr: ast.expr) -> str:
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return ""
    parts.append(expr.id)
    return ".".join(reversed(parts))


def lacks(summary: Optional[ModuleSummary], classes: bool) -> bool:
    """Whether ``summary`` is missing, or cheap where its classes (or generators) are asked for."""
    return summary is None or (classes and bool(summary.unparsed_classes or summary.unparsed_generators))


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def module_imports(tree: ast.Module, module_name: str,
                   is_package: bool) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """``ModuleSummary.aliases`` from Python's ``ast``, exactly as ``summarize`` reads them
    from the semantic model (the module-scope names bound once, by an import), and the names
    of the module-scope classes.  Tested against summarize on real modules."""
    bound, class_names = _module_bindings(tree)
    return _aliases(bound, module_name, is_package), class_names


def _aliases(bound: dict[str, list[Optional[str]]], module_name: str,
             is_package: bool) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((name, absolute(imported[0], module_name, is_package))
                        for name, imported in bound.items() if len(imported) == 1 and imported[0]))


def _module_bindings(tree: ast.Module) -> tuple[dict[str, list[Optional[str]]], tuple[str, ...]]:
    """Each name the module scope binds -> what each of its bindings imports (None: not an
    import), and the names of the module-scope classes."""
    bound: dict[str, list[Optional[str]]] = {}  # name -> what each binding imports (None: not)
    class_names: set[str] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if not isinstance(node, ast.Lambda):
                bound.setdefault(node.name, []).append(None)
                pending.extend(node.decorator_list)
            # Defaults and decorators run in the module scope (a walrus there binds in it).
            pending.extend(node.args.defaults)
            pending.extend(d for d in node.args.kw_defaults if d is not None)
        elif isinstance(node, ast.ClassDef):
            bound.setdefault(node.name, []).append(None)
            class_names.add(node.name)
            pending.extend([*node.decorator_list, *node.bases, *node.keywords])
        elif isinstance(node, _COMPREHENSIONS):
            # Its targets bind in its own scope; a walrus in it binds in the module.
            elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            pending.extend(elements)
            for generator in node.generators:
                pending.extend([generator.iter, *generator.ifs])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname is not None:
                    bound.setdefault(alias.asname, []).append(alias.name)
                else:
                    top = alias.name.split(".")[0]
                    bound.setdefault(top, []).append(top)
        elif isinstance(node, ast.ImportFrom):
            prefix = "." * node.level + (node.module or "")
            sep = "" if prefix.endswith(".") else "."
            for alias in node.names:
                if alias.name != "*":
                    bound.setdefault(alias.asname or alias.name, []).append(f"{prefix}{sep}{alias.name}")
        else:
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                bound.setdefault(node.id, []).append(None)
            elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
                bound.setdefault(node.name, []).append(None)
            elif isinstance(node, ast.MatchMapping) and node.rest:
                bound.setdefault(node.rest, []).append(None)
            pending.extend(ast.iter_child_nodes(node))
    return bound, tuple(sorted(class_names))


# ---------------------------------------------------------------------------- classes across modules
def resolve_class(expr: cst.BaseExpression, scope: Scope, model: SemanticModel,
                  index: Optional[ProjectIndex], module_name: Optional[str], is_package: bool,
                  asked: Optional[set[str]] = None, _depth: int = 0) -> Optional[tuple[str, str, str]]:
    """(class name, final verdict, why) of the class ``expr`` names, following single bases.
    A name imported from elsewhere is looked up in ``index`` and added to ``asked``: with
    the index, such a file's findings may change (needs_index)."""
    if _depth > 6:
        return None
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "class":
            assert isinstance(binding.node, cst.ClassDef)
            info = class_info(binding.node, binding.scope, model, None)
            base = next((a.value for a in binding.node.bases
                         if not (isinstance(a.value, cst.Name) and a.value.value == "object")), None)
            return _finish(info, base, binding.scope, model, index, module_name, is_package,
                           asked, _depth)
    qualname = model.qualified_name(expr, scope)
    if qualname is None:
        return None
    qualname = absolute(qualname, module_name, is_package)
    if asked is not None:
        asked.add(qualname)
    return _verdict_from_index(qualname, index, _depth) if index is not None else None


def _finish(info: ClassInfo, base: Optional[cst.BaseExpression], scope: Scope, model: SemanticModel,
            index, module_name, is_package, asked, depth) -> Optional[tuple[str, str, str]]:
    if info.verdict == UNKNOWN:
        return None
    if base is None:
        return info.name, info.verdict, info.why
    resolved = resolve_class(base, scope, model, index, module_name, is_package, asked, depth + 1)
    if resolved is None:
        return None
    if info.verdict == HASH_ONLY:
        return (info.name, *_hash_only(resolved[1], resolved[2]))
    if info.verdict != INHERIT:
        return info.name, info.verdict, info.why
    return info.name, resolved[1], resolved[2]


def _hash_only(base_verdict: str, base_why: str) -> tuple[str, str]:
    """A class that adds __hash__ to a base: it compares as the base does, and hashes."""
    if base_verdict == UNHASHABLE:
        return VALUE, ""  # the base's __eq__ (by value) now comes with a hash
    if base_verdict == IDENTITY:
        return IDENTITY, "hash"
    return base_verdict, base_why


def _verdict_from_index(qualname: str, index: ProjectIndex, depth: int) -> Optional[tuple[str, str, str]]:
    first = info = index.cls(qualname)
    verdict = None
    hash_added = False  # a class on the way defines __hash__ only
    for _ in range(6 - min(depth, 6)):
        if info is None or info.verdict == UNKNOWN:
            return None
        if info.verdict == HASH_ONLY:
            hash_added = hash_added or verdict is None
        elif verdict is None and info.verdict != INHERIT:
            verdict = (info.verdict, info.why)
        if info.base is None:  # the chain ends in object: every link is known
            assert first is not None
            final = verdict or (IDENTITY, "")
            return qualname.rsplit(".", 1)[-1], *(_hash_only(*final) if hash_added else final)
        info = index.cls(info.base)
    return None


# ---------------------------------------------------------------------------- building the index
def build_index(modules: Iterable[tuple[str, Optional[ModuleSummary]]]) -> ProjectIndex:
    """The index of ``(path, summary or None)`` pairs (a path listed twice counts once, with
    its summary); notebooks are left out (nobody imports a notebook; it must not shadow the
    module of its name), and so is a module name that two files claim (trust neither)."""
    index = ProjectIndex()
    claimed: dict[str, int] = {}
    unique: dict[str, tuple[str, Optional[ModuleSummary]]] = {}
    for path, summary in modules:
        key = os.path.normpath(os.path.abspath(path))
        if key not in unique or summary is not None:
            unique[key] = (unique[key][0] if key in unique else path, summary)
    for path, summary in unique.values():
        if is_notebook(path):
            continue
        name, _ = module_name_for(path)
        claimed[name] = claimed.get(name, 0) + 1
        index.paths[name] = path
        if summary is not None:
            index.summaries[name] = summary
    for name, count in claimed.items():
        if count > 1:
            del index.paths[name]
            index.summaries.pop(name, None)
    return index


@dataclass(frozen=True)
class CallShape:
    """One call of a name another module may define, as far as static arguments go: what
    ``rules/_static.py`` maps onto the static positions and keywords of a jitted function.
    A constant literal (``1``, ``"same"``, ``(0, -1)``, ``None``) is the same hashable value
    at every call, so no static-argument rule can report it: only the other arguments count."""

    callee: str
    n_positional: int  # positional arguments before the first ``*``/``**`` unpacking
    exact: bool  # no ``*args``: a negative static_argnum resolves
    varying: tuple[int, ...]  # those positions given something else than a constant literal
    keywords: tuple[str, ...]  # keywords given something else than a constant literal
    # positions and keywords given a string literal: not a valid JAX type where jit traces
    # (JIT807), so the call matters at the traced positions too
    strings: tuple[int | str, ...] = ()

    def reaches_static(self, spec: StaticArgSpec) -> bool:
        """Whether the call gives a non-constant value to a static argument of ``spec``."""
        static = spec.static_positions(self.n_positional, self.exact)
        return any(spec.filtering or position in static for position in self.varying) \
            or any(spec.static_keyword(keyword) for keyword in self.keywords)

    def reaches_traced_string(self, spec: StaticArgSpec) -> bool:
        """Whether the call gives a string literal to an argument ``spec`` traces."""
        if spec.filtering or spec.jit not in ARGNUM_JITS or not self.strings:
            return False
        static = spec.static_positions(self.n_positional, self.exact)
        return any(at not in static if isinstance(at, int) else not spec.static_keyword(at)
                   for at in self.strings)


@dataclass(frozen=True)
class References:
    """What a module may refer to in other modules through its imports, read from Python's
    ``ast``.  Scopes are merged, so it is a superset of what the semantic model resolves: it
    decides which files the project index can concern (engine.lint_files, needs_index)
    without a libcst parse, and must never leave one out."""

    names: tuple[str, ...] = ()  # every dotted name reached (``jnp.linalg.norm`` -> ``jax.numpy.linalg.norm``)
    calls: tuple[CallShape, ...] = ()  # how those names are called


@dataclass(frozen=True)
class ModuleScan:
    """One walk of a module's ``ast``: its identifiers (the prefilter's question) and its
    references to other modules."""

    identifiers: frozenset[str]
    references: References
    calls: Optional[ModuleCalls] = None  # its calls of project functions (callgraph.py)

    def names_any(self, words: Sequence[str]) -> bool:
        """Whether an identifier (a name, an attribute or an imported name; not a comment,
        string or docstring) contains one of ``words``."""
        return any(word in name for name in self.identifiers for word in words)

    def reaches_jit(self) -> bool:
        """Whether a name it reaches through its imports may be jit-like (jitnames)."""
        return any(map(may_name_jit, self.references.names))

    def reaches_any(self, qualnames: Iterable[str]) -> bool:
        """Whether it reaches one of ``qualnames`` through its imports."""
        return not set(self.references.names).isdisjoint(qualnames)


def scan_module(tree: ast.Module, module: str, is_package: bool, path: str = "") -> ModuleScan:
    """ModuleScan of ``tree``: the names it reads, what it imports, and every ``alias.attr``
    read of an imported name or of a name assigned from one, with how each is called; with
    ``path``, also its calls of project functions and where they run (callgraph.py)."""
    identifiers: set[str] = set()
    imported: set[str] = set()
    bound: dict[str, set[str]] = {}  # local name -> the dotted names it may stand for
    copies: list[tuple[str, ast.expr]] = []  # ``x = <name or attribute chain>``
    chains: list[ast.expr] = []
    calls: list[ast.Call] = []
    graph = CallCollector()
    frame = ("", 0, "")  # (top-level def or method, loops inside it, class): where calls run
    stack: list = [tree]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            identifiers.add(node.id)  # type: ignore[attr-defined]
            chains.append(node)  # type: ignore[arg-type]
            continue  # its only child is the context
        if kind is tuple:  # leaving a def, class or loop: the frame around it again
            frame = node
            continue
        if kind is ast.Attribute:
            identifiers.add(node.attr)  # type: ignore[attr-defined]
            chains.append(node)  # type: ignore[arg-type]
        elif kind is ast.Call:
            calls.append(node)  # type: ignore[arg-type]
            graph.calls.append((node, frame))  # type: ignore[arg-type]
        elif kind in _FRAMES:
            stack.append(frame)  # the frame to restore once the node is done
            if kind is ast.For or kind is ast.AsyncFor:
                # the body runs per item; the iterable once, in the frame around the loop
                stack.extend((node.target, *node.body, *node.orelse))  # type: ignore[attr-defined]
                stack.append(graph.enter(node, frame, graph.defs))
                stack.append(node.iter)  # type: ignore[attr-defined]
                continue
            frame = graph.enter(node, frame, graph.defs)
        elif kind is ast.Import:
            for alias in node.names:  # type: ignore[attr-defined]
                identifiers.update((alias.name, alias.asname or ""))
                imported.add(alias.name)
                # ``import a.b`` binds ``a``: ``a.b.f`` is then read as an attribute chain
                meaning = alias.name if alias.asname else alias.name.split(".", 1)[0]
                bound.setdefault(alias.asname or meaning, set()).add(meaning)
            continue
        elif kind is ast.ImportFrom:
            base = absolute("." * node.level + (node.module or ""), module, is_package)  # type: ignore[attr-defined]
            for alias in node.names:  # type: ignore[attr-defined]
                identifiers.update((alias.name, alias.asname or ""))
                if alias.name != "*":
                    target = f"{base}.{alias.name}" if base else alias.name
                    imported.add(target)
                    bound.setdefault(alias.asname or alias.name, set()).add(target)
            continue
        elif kind is ast.Assign or kind is ast.AnnAssign or kind is ast.NamedExpr:
            value = node.value  # type: ignore[attr-defined]
            if isinstance(value, (ast.Name, ast.Attribute)):
                targets = node.targets if kind is ast.Assign else [node.target]  # type: ignore[attr-defined]
                copies.extend((t.id, value) for t in targets if isinstance(t, ast.Name))
        _push_children(stack, node)
    identifiers.discard("")
    for _ in range(8):  # ``la = jnp.linalg; norm = la.norm``: copies of copies, as deep as
        # SemanticModel.qualified_name follows them
        grew = False
        for name, value in copies:
            meanings = _chain_meanings(value, bound) - bound.get(name, set())
            if meanings:
                bound.setdefault(name, set()).update(meanings)
                grew = True
        if not grew:
            break
    names = imported
    for node in chains:
        names.update(_chain_meanings(node, bound))
    callees = {id(call): _chain_meanings(call.func, bound) for call in calls}
    shapes = {shape for call in calls for shape in _call_shapes(call, callees[id(call)])}
    return ModuleScan(frozenset(identifiers), References(
        tuple(sorted(names)),
        tuple(sorted(shapes, key=lambda c: (c.callee, c.n_positional, c.varying, c.keywords, c.exact)))),
        graph.module_calls(module, path, bound, _chain_meanings, callees) if path else None)


def _push_children(stack: list, node: ast.AST) -> None:
    """``stack.extend(ast.iter_child_nodes(node))``, in the same order, without its two
    generators per node (the scan meets every node of every file of a run)."""
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            stack.append(value)
        elif type(value) is list:
            stack.extend([item for item in value if isinstance(item, ast.AST)])


# Nodes whose insides run in another frame than they do: defs, classes, loops.
_FRAMES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.AsyncFor,
                     ast.While, *_COMPREHENSIONS})


def _call_shapes(call: ast.Call, callees: set[str]) -> Iterator[CallShape]:
    if not callees:
        return
    n_positional = 0
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            break
        n_positional += 1
    exact = not any(isinstance(arg, ast.Starred) for arg in call.args)
    varying = tuple(i for i, arg in enumerate(call.args[:n_positional]) if not _constant(arg))
    keywords = tuple(sorted({k.arg for k in call.keywords if k.arg is not None and not _constant(k.value)}))
    strings = (*(i for i, arg in enumerate(call.args[:n_positional]) if _string(arg)),
               *sorted(k.arg for k in call.keywords if k.arg is not None and _string(k.value)))
    for callee in callees:
        yield CallShape(callee, n_positional, exact, varying, keywords, strings)


def _string(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _constant(node: ast.expr) -> bool:
    """A literal with the same hashable value at every evaluation: ``3``, ``-1``, ``"x"``,
    ``None``, and tuples of those."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    if isinstance(node, ast.Tuple):
        return all(_constant(element) for element in node.elts)
    return isinstance(node, ast.Constant)


def _chain_meanings(node: ast.expr, bound: dict[str, set[str]]) -> set[str]:
    attrs: list[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in bound:
        return set()
    suffix = "".join(f".{attr}" for attr in reversed(attrs))
    return {f"{meaning}{suffix}" for meaning in bound[node.id]}


def imported_unsummarised(imports: Iterable[Sequence[str]], index: ProjectIndex,
                          classes: bool = False) -> list[str]:
    """Modules of the index without a summary that some module imports from (with ``classes``:
    also a cheap one, when what is imported is one of its classes)."""
    wanted: set[str] = set()
    for names in imports:
        for qualname in names:
            parts = qualname.split(".")
            for cut in range(len(parts), 0, -1):
                module = ".".join(parts[:cut])
                if module in index.paths:
                    summary = index.summaries.get(module)
                    if summary is None or (classes and ".".join(parts[cut:]) in summary.unparsed_classes):
                        wanted.add(module)
                    break
    return sorted(wanted)


def needs_index(references: References, classes_asked: Iterable[str], index: ProjectIndex,
                specs: Optional[dict[str, Optional[StaticArgSpec]]] = None,
                members_asked: Iterable[str] = ()) -> bool:
    """Whether the index can change a file's findings: it uses a jit wrapper of another linted
    module (or of an installed package), or gives a non-constant value to a static argument of
    a jitted function of one (rules/_static.py checks the values passed there), or its rules
    asked how a class of one hashes (``classes_asked``, from its lint without the index), or
    what the methods of a class of one or of an installed package are (``members_asked``:
    JIT104's receivers).  ``specs`` memoises the
    index's answers across the files of one decision (thousands of calls, few callees)."""
    if any(index.wrapper(name) is not None for name in references.names):
        return True
    # The facts below are about the project's own modules (a library's internals, linted as a
    # project, call their own lax helpers everywhere: callgraph.LIBRARIES, as the call graph)
    own = [call for call in references.calls if not call.callee.startswith(LIBRARIES)]
    helpers = set(index.lax_helper_names())
    if helpers and any(call.callee.rpartition(".")[2] in helpers and index.lax_helper(call.callee) is not None
                       for call in own):
        return True  # it may call another module's lax helper in a loop (JIT520)
    if index.generator_names() and any(index.may_be_ragged(call.callee) for call in own):
        return True  # it may loop over another module's generator's batches (JIT504)
    readers = index.reading_names()
    if readers:  # it may change what another module's jitted function reads (JIT601)
        names = set(references.names)
        if any(call.callee.rpartition(".")[2] in readers and not names.isdisjoint(index.global_reads(call.callee))
               for call in own):
            return True
    specs = {} if specs is None else specs
    for call in references.calls:
        if call.callee not in specs:
            specs[call.callee] = index.function(call.callee)
        spec = specs[call.callee]
        # what _static._Callees.lookup follows to the index: checkable module-level functions
        if spec is not None and spec.checkable and not spec.method and (
                call.reaches_static(spec) or call.reaches_traced_string(spec)):
            return True
    if "jax.tree_util.Partial" in references.names:  # it may bind a static argument (JIT203)
        for name in references.names:
            if name not in specs:
                specs[name] = index.function(name)
            spec = specs[name]
            if spec is not None and spec.checkable and spec.has_static_arguments:
                return True
    return any(index.cls(name) is not None for name in classes_asked) \
        or any(index.class_members(name) is not None for name in members_asked)


@dataclass(frozen=True)
class SummaryFailure:
    """Why a module is left out of the index: code too deep or too large to analyse, or (``bug``)
    an exception in jitlint itself."""

    reason: str
    bug: bool = False


def summarise_isolated(path: str, classes: bool = False) -> tuple[Optional[ModuleSummary], Optional[SummaryFailure]]:
    """summarize_path, with whatever escapes it turned into a SummaryFailure."""
    try:
        return summarize_path(path, classes), None
    except RecursionError:
        return None, SummaryFailure("code too deeply nested to analyse")
    except MemoryError:
        return None, SummaryFailure("code too large to analyse")
    except Exception as exc:
        return None, SummaryFailure(f"{type(exc).__name__}: {exc}", bug=True)


def summarise_batch(paths: Sequence[str], classes: bool = False) -> list[tuple[Optional[ModuleSummary], Optional[SummaryFailure]]]:
    return [summarise_isolated(path, classes) for path in paths]


# ---------------------------------------------------------------------------- the project's modules
MAX_PROJECT_FILES = 5000  # a "project" larger than this is no project (a home directory...)


def project_root(path: str) -> Path:
    """Where the modules a file may import live: the nearest directory above it with a
    pyproject.toml, else the directory above its top package, else its own directory."""
    file = Path(os.path.abspath(path))
    for directory in file.parents:
        if (directory / "pyproject.toml").is_file():
            return directory
    directory = file.parent
    while (directory / "__init__.py").is_file() and directory.parent != directory:
        directory = directory.parent
    return directory


def project_modules(root: Path, python_files: Callable[[Path], Iterable[str]]) -> dict[str, str]:
    """Normalised absolute path -> path of each Python module of the project under ``root``
    (``python_files`` walks a directory with the user's excludes); {} for a tree too large to
    be one project."""
    found: dict[str, str] = {}
    for path in python_files(root):
        if is_notebook(path):
            continue
        found[os.path.normpath(os.path.abspath(path))] = path
        if len(found) > MAX_PROJECT_FILES:
            return {}
    return found


# Python operations that need a concrete value (jaxfacts: PYTHON_VALUE_SYNTAX / _BUILTINS /
# _METHODS, NumPy calls, data-sized outputs), as ast nodes applied to a parameter: what makes a
# function handed to a transform worth a full parse.
_TRUTH_TESTS = (ast.If, ast.While, ast.IfExp, ast.Assert)
_FORCING_CALLS = frozenset({"int", "float", "bool", "complex", "range", "item", "tolist"})
_DATA_SIZED = frozenset({"nonzero", "argwhere", "flatnonzero", "unique"})
_NUMPY_ALIASES = frozenset({"np", "numpy", "onp"})
_CONCRETE_TESTS = frozenset({"isinstance", "callable", "hasattr", "len"})


def transformed_function_forces(tree: ast.Module, transforms: frozenset[str],
                                handed_functions: frozenset[str] = frozenset()) -> bool:
    """Whether a call named like one of ``transforms`` (last names: ``vmap``, ``grad``) is
    handed a def of this file or a lambda (its first argument) that applies to one of its
    parameters a Python truth test, a conversion (``int(x)``, ``x.item()``), a bound
    (``range``), a NumPy call (``np.``) or a data-sized ``jnp`` function, or a library function
    named like one of ``handed_functions`` (``lax.integer_pow``): the prefilter's question for a
    file that reaches a transform but names no jit (the analysis decides)."""
    defs: Optional[dict] = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                _decorator_last_name(d) in transforms for d in node.decorator_list):
            # ``@jax.vmap`` / ``@partial(jax.vmap, in_axes=...)`` over the def itself
            params = {a.arg for a in (*node.args.posonlyargs, *node.args.args)}
            if params and any(_forces(inner, params) for inner in ast.walk(node)):
                return True
            continue
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name not in transforms:
            continue
        handed = node.args[0]
        if isinstance(handed, ast.Attribute) and handed.attr in handed_functions:
            return True
        if isinstance(handed, ast.Name):
            if defs is None:
                defs = {d.name: d for d in ast.walk(tree) if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))}
            handed = defs.get(handed.id)
        if isinstance(handed, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
            params = {a.arg for a in (*handed.args.posonlyargs, *handed.args.args)}
            if params and any(_forces(inner, params) for inner in ast.walk(handed)):
                return True
    return False


def _decorator_last_name(decorator: ast.expr) -> str:
    """``jax.vmap`` -> vmap; ``partial(jax.vmap, in_axes=...)`` -> vmap; ``jax.checkpoint(...)``
    -> checkpoint."""
    if isinstance(decorator, ast.Call):
        inner = decorator.args[0] if decorator.args and _last(decorator.func) == "partial" else decorator.func
        return _last(inner)
    return _last(decorator)


def _last(expr: ast.expr) -> str:
    return expr.id if isinstance(expr, ast.Name) else expr.attr if isinstance(expr, ast.Attribute) else ""


def hands_own_function(tree: ast.Module, calls: dict[str, int]) -> bool:
    """Whether a call named like a key of ``calls`` (``param``) is handed, at the position the
    value names, a lambda or the name of a def of this file (``self.param("w", my_init, s)``)."""
    defs: Optional[set[str]] = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        position = calls.get(name)
        if position is None or position >= len(node.args):
            continue
        handed = node.args[position]
        if isinstance(handed, ast.Lambda):
            return True
        if isinstance(handed, ast.Name):
            if defs is None:
                defs = {d.name for d in ast.walk(tree) if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))}
            if handed.id in defs:
                return True
    return False


def _mentions(node: Optional[ast.AST], params: set[str]) -> bool:
    return node is not None and any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(node))


def _forces(node: ast.AST, params: set[str]) -> bool:
    if isinstance(node, _TRUTH_TESTS):
        test = node.test
        if isinstance(test, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn))
                                                 for op in test.ops):
            return False
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id in _CONCRETE_TESTS:
            return False
        return _mentions(test, params)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _mentions(node.operand, params)
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in _FORCING_CALLS and any(_mentions(arg, params) for arg in node.args)
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in ("item", "tolist"):
        return _mentions(func.value, params)
    numpy = isinstance(func.value, ast.Name) and func.value.id in _NUMPY_ALIASES
    return (numpy or func.attr in _DATA_SIZED) and any(_mentions(arg, params) for arg in node.args)
