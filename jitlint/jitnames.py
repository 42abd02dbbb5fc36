"""Which expressions are jit, and where jit is applied.

A callee is jit-like when it resolves (through imports, aliases and ``functools.partial``) to
one of ``JIT_FUNCTIONS`` or to a name the user configured in ``extra-jit-functions``.  Text is
never matched: ``numba.jit`` or a user's own ``def jit`` resolve to other names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator, Optional, Sequence, Union

import libcst as cst

from jitlint.semantic import Frame, Scope, SemanticModel, decorator_name, dotted_name
from jitlint.walk import is_docstring
if TYPE_CHECKING:
    from jitlint.project import ProjectIndex

JIT_FUNCTIONS = frozenset({
    "jax.jit",
    "jax.pmap",
    "jax.experimental.pjit.pjit",
    "equinox.filter_jit",
    "equinox.filter_pmap",
    "flax.linen.jit",
    "flax.nnx.jit",
})
# The same functions under the names JAX's and flax's own modules use for them.
JIT_SPELLINGS = {
    "jax._src.api.jit": "jax.jit",
    "jax._src.pjit.jit": "jax.jit",
    "jax._src.api.pmap": "jax.pmap",
    "jax._src.pjit.pjit": "jax.experimental.pjit.pjit",
    "flax.nnx.transforms.compilation.jit": "flax.nnx.jit",
    "flax.nnx.transforms.jit": "flax.nnx.jit",
}
# Jit wrappers of JAX libraries whose source shows no ``return jax.jit(fn)`` (a wrapper object,
# a cache of its own), by what they behave like.  haliax's ``named_jit`` (haliax 1.3,
# partitioning.py) splits the function and the arguments with ``hashable_partition``, every
# non-array part static, and calls a jax.jit cached on them: equinox.filter_jit's behaviour.
# array-api-extra's ``jax_autojit`` (vendored by scipy 1.17 under ``scipy._lib``) makes every
# non-array argument static (its docstring; measured by tests/test_jaxfacts.py): the same.
KNOWN_JIT_WRAPPERS = {
    "haliax.named_jit": "equinox.filter_jit",
    "haliax.partitioning.named_jit": "equinox.filter_jit",
    "array_api_extra._lib._utils._helpers.jax_autojit": "equinox.filter_jit",
    "scipy._lib.array_api_extra._lib._utils._helpers.jax_autojit": "equinox.filter_jit",
}
# Under these every non-array argument is static (equinox's filtering).
FILTERING_JIT_FUNCTIONS = frozenset({"equinox.filter_jit", "equinox.filter_pmap"})
PARTIAL_FUNCTIONS = frozenset({"functools.partial", "jax.tree_util.Partial"})  # Partial: a pytree subclass of it

# Words that must occur in a file's text for any jit to be resolvable in it; used by the
# prefilter.  ``jit`` covers jit, pjit, filter_jit; ``pmap`` covers pmap and filter_pmap.
JIT_WORDS = ("jit", "pmap")
# Packages whose every jit-like function is named above: their other names with a jit word
# (``jax.disable_jit``, ``jax._src.pjit.pjit_p``, ``jax.core.jit_p``) are not jit.
PACKAGES_LISTED = frozenset({"jax", "flax", "equinox"})


def may_name_jit(qualname: str) -> bool:
    """Whether a dotted name a module reaches through its imports may be jit-like: one of the
    listed functions, or any name of another package with a jit word in its last part (a
    wrapper of the project's or of an installed package, known only with the project index)."""
    if JIT_SPELLINGS.get(qualname, qualname) in JIT_FUNCTIONS or qualname in KNOWN_JIT_WRAPPERS:
        return True
    package, _, _ = qualname.partition(".")
    last = qualname.rpartition(".")[2]
    return package not in PACKAGES_LISTED and any(word in last for word in JIT_WORDS)


@dataclass(frozen=True)
class JitRef:
    """A resolved jit-like callee: its qualified name and keyword arguments bound so far."""

    qualname: str
    keywords: tuple[cst.Arg, ...] = ()
    via: str = ""  # the wrapper the code calls, when it is a known wrapper of ``qualname``
    spelled: str = ""  # the project's own wrapper as the code names it (``jit_deco``), for messages

    @property
    def display(self) -> str:
        if self.via:
            return self.via
        jit = self.qualname.replace("jax.experimental.pjit.pjit", "pjit")
        return f"`{self.spelled}` ({jit})" if self.spelled else jit


@dataclass(eq=False)
class JitApplication:
    """One place where jit wraps a callable: ``jit(target, ...)`` or ``@jit def target``."""

    jit: JitRef
    target: Union[cst.BaseExpression, cst.FunctionDef]
    anchor: cst.CSTNode  # what a finding points at: the jit Call, or the Decorator
    frame: Frame  # the context of the anchor
    keywords: tuple[cst.Arg, ...]  # every keyword: from partial(...) and from the call itself
    call: Optional[cst.Call] = None  # the jit call (call form only)

    @property
    def is_decorator(self) -> bool:
        return isinstance(self.target, cst.FunctionDef)


class JitResolver:
    def __init__(self, model: SemanticModel, extra_jit_functions: Sequence[str] = (),
                 index: "Optional[ProjectIndex]" = None, is_package: bool = False) -> None:
        self.model = model
        self.jit_names = JIT_FUNCTIONS | frozenset(extra_jit_functions)
        # Wrappers defined in other modules of the project (ModuleSummary.wrappers) or in
        # installed packages (read from their source: ProjectIndex.wrapper).
        self.index = index
        self.is_package = is_package

    def resolve(self, expr: cst.BaseExpression, scope: Scope, _depth: int = 0) -> Optional[JitRef]:
        """The jit an expression denotes when called, or None."""
        if _depth > 6:
            return None
        if isinstance(expr, (cst.Name, cst.Attribute)):
            qualname = self.model.qualified_name(expr, scope)
            qualname = JIT_SPELLINGS.get(qualname, qualname) if qualname else qualname
            if qualname in self.jit_names:
                return JitRef(qualname)
            if qualname in KNOWN_JIT_WRAPPERS:
                return JitRef(KNOWN_JIT_WRAPPERS[qualname], via=qualname)
            if qualname is not None and self.index is not None:
                imported = self._imported_wrapper(qualname, factory=False)
                if imported is not None:
                    return dataclasses.replace(imported, spelled=dotted_name(expr))
            if isinstance(expr, (cst.Name, cst.Attribute)):
                wrapper = self._wrapper(expr, scope, _depth)
                if wrapper is not None and not wrapper[1]:
                    return dataclasses.replace(wrapper[0], spelled=wrapper[0].spelled or dotted_name(expr))
            if isinstance(expr, cst.Name):
                # ``J = partial(jax.jit, static_argnums=1)`` then ``@J``
                binding = self.model.single_binding(expr.value, scope)
                if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Call):
                    return self.resolve(binding.value, binding.scope, _depth + 1)
            return None
        if isinstance(expr, cst.Call):
            func_qualname = self.model.qualified_name(expr.func, scope)
            if func_qualname in PARTIAL_FUNCTIONS and expr.args and expr.args[0].keyword is None \
                    and expr.args[0].star == "":
                inner = self.resolve(expr.args[0].value, scope, _depth + 1)
                if inner is not None:
                    keywords = tuple(a for a in expr.args[1:] if a.keyword is not None)
                    return JitRef(inner.qualname, inner.keywords + keywords, inner.via, inner.spelled)
                return None
            factory = self._factory(expr.func, scope, _depth)
            if factory is not None:  # ``my_jit(static_argnums=1)``: the project's decorator factory
                keywords = tuple(a for a in expr.args if a.keyword is not None)
                return JitRef(factory.qualname, factory.keywords + keywords,
                              spelled=factory.spelled or dotted_name(expr.func))
            # ``jax.jit(static_argnames=...)`` used as a decorator factory.
            inner = self.resolve(expr.func, scope, _depth + 1)
            # (not ``jax.jit(*args, **kwargs)``: the forwarded arguments hold the function)
            if inner is not None and _wrapped_callable(expr) is None and not any(a.star == "*" for a in expr.args):
                keywords = tuple(a for a in expr.args if a.keyword is not None)
                return JitRef(inner.qualname, inner.keywords + keywords, inner.via, inner.spelled)
        return None

    def _factory(self, func: cst.BaseExpression, scope: Scope, depth: int) -> Optional[JitRef]:
        """The jit that calling ``func`` returns, when it is the project's decorator factory."""
        if isinstance(func, cst.Name):
            wrapper = self._wrapper(func, scope, depth)
            if wrapper is not None:
                return wrapper[0] if wrapper[1] else None
        if self.index is not None and isinstance(func, (cst.Name, cst.Attribute)):
            qualname = self.model.qualified_name(func, scope)
            if qualname is not None:
                return self._imported_wrapper(qualname, factory=True)
        return None

    def _wrapper(self, name: cst.BaseExpression, scope: Scope, depth: int) -> Optional[tuple[JitRef, bool]]:
        """A project's own wrapper in this module: (its jit, whether it is a decorator factory).
        A def, or a staticmethod of a class of this module (``global_defs.pmap_for_my_devices``)."""
        if isinstance(name, cst.Attribute):
            owner = self.model.single_binding(name.value.value, scope) if isinstance(name.value, cst.Name) else None
            cls = owner.node if owner is not None and owner.kind == "class" else None
            body = cls.body.body if isinstance(cls, cst.ClassDef) and isinstance(cls.body, cst.IndentedBlock) else ()
            method = next((m for m in body if isinstance(m, cst.FunctionDef) and m.name.value == name.attr.value), None)
            if method is None or [decorator_name(d) for d in method.decorators] != ["staticmethod"]:
                return None
            return self.wrapper_shape(method, depth, staticmethod=True)
        binding = self.model.single_binding(name.value, scope) if isinstance(name, cst.Name) else None
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
            return None
        return self.wrapper_shape(binding.node, depth)

    def wrapper_shape(self, function: cst.FunctionDef, depth: int = 0, staticmethod: bool = False
                      ) -> Optional[tuple[JitRef, bool]]:
        """``def my_jit(f, ...): return jax.jit(f, ...)`` or ``def my_jit(*args, **kwargs):
        return jax.jit(*args, **kwargs)`` (jit under another name: False) or
        ``def my_jit(**kw): return functools.partial(jax.jit, **kw)`` (a decorator factory:
        True); the jit with the keywords the wrapper binds.  Only a function whose whole body
        returns it: one that memoises (a decorator) or stores the result is no fresh jit."""
        if (function.decorators and not staticmethod) or depth > 6:
            return None
        params = [*function.params.posonly_params, *function.params.params]
        statements = [s for s in function.body.body if not is_docstring(s)] \
            if isinstance(function.body, cst.IndentedBlock) else []
        inner_scope = self.model.scope_of[function]
        made = _returned_def(statements)
        if made is not None:  # ``def jit_condition(**kw): def deco(f): return jit(f, **kw); return deco``
            inner = self.wrapper_shape(made, depth + 1)
            return (inner[0], True) if inner is not None and not inner[1] else None
        returned = _switched_return(statements, params[0].name.value if params else None)
        if returned is None:
            return None
        factory = self.resolve(returned.value, inner_scope, depth + 1)
        if factory is not None:
            return factory, True
        call = returned.value
        if not isinstance(call, cst.Call):
            return None
        wrapped = _wrapped_callable(call)
        star = function.params.star_arg
        forwards = bool(call.args) and call.args[0].star == "*" and isinstance(star, cst.Param) \
            and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == star.name.value
        if not forwards and not (params and isinstance(wrapped, cst.Name) and wrapped.value == params[0].name.value):
            return None  # ``return jax.jit(module_function)``: the same function each time
        inner = self.resolve(call.func, inner_scope, depth + 1)
        if inner is None:
            return None
        keywords = tuple(a for a in call.args if a.keyword is not None)
        return JitRef(inner.qualname, inner.keywords + keywords), False

    def _imported_wrapper(self, qualname: str, factory: bool) -> Optional[JitRef]:
        assert self.index is not None
        from jitlint.project import absolute

        fact = self.index.wrapper(absolute(qualname, self.model.module_name, self.is_package))
        if fact is None or fact.factory != factory:
            return None
        return JitRef(fact.jit, tuple(_foreign_keyword(k, code) for k, code in fact.keywords))

    def applications(self) -> Iterator[JitApplication]:
        for site in self.model.calls:
            jit = self.resolve(site.node.func, site.frame.scope)
            if jit is None:
                continue
            target = _wrapped_callable(site.node)
            if target is None:
                continue  # a decorator factory, handled where it decorates
            keywords = jit.keywords + tuple(a for a in site.node.args if a.keyword is not None)
            yield JitApplication(jit, target, site.node, site.frame, keywords, site.node)
        for func, frame in self.model.functions.items():
            for decorator in func.decorators:
                jit = self.resolve(decorator.decorator, frame.scope)
                if jit is not None:
                    yield JitApplication(jit, func, decorator, frame, jit.keywords)


@lru_cache(maxsize=None)
def _foreign_keyword(keyword: str, code: str) -> cst.Arg:
    """A keyword a wrapper in another module binds, rebuilt from its summary: ``code`` is a
    literal, or ``...`` for a value that module computes (not readable here)."""
    arg = cst.Arg(cst.parse_expression(code), keyword=cst.Name(keyword))
    _FOREIGN.add(id(arg))  # cached for the process: its id stays its own
    return arg


_FOREIGN: set[int] = set()


def is_foreign(node: cst.CSTNode) -> bool:
    """A node made from another module's summary: no position in this file to point at."""
    return id(node) in _FOREIGN



def _returned_def(statements: list) -> Optional[cst.FunctionDef]:
    """``def deco(f): ...`` then ``return deco``: the nested def a factory's body returns."""
    if len(statements) != 2 or not isinstance(statements[0], cst.FunctionDef) or statements[0].decorators \
            or not isinstance(statements[1], cst.SimpleStatementLine):
        return None
    returned = statements[1].body[0]
    return statements[0] if isinstance(returned, cst.Return) and isinstance(returned.value, cst.Name) \
        and returned.value.value == statements[0].name.value else None


def _switched_return(statements: list, param: Optional[str]) -> Optional[cst.Return]:
    """The ``return`` of a wrapper's whole body: a single one, or the jit of a debugging switch
    that otherwise hands its first parameter back unjitted (``if DO_JIT: return jit(f) else:
    return f``; the switch is on in the runs that compile)."""
    def single(block) -> Optional[cst.Return]:
        body = [s for s in block.body if not is_docstring(s)] if isinstance(block, cst.IndentedBlock) else \
            list(block) if isinstance(block, list) else []
        if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 \
                and isinstance(body[0].body[0], cst.Return) and body[0].body[0].value is not None:
            return body[0].body[0]
        return None

    if len(statements) == 1 and not isinstance(statements[0], cst.If):
        return single(statements)
    switch = statements[0] if statements and isinstance(statements[0], cst.If) else None
    if switch is None or len(statements) > 2 or (len(statements) == 2) == isinstance(switch.orelse, cst.Else):
        return None
    other = single(switch.orelse.body) if isinstance(switch.orelse, cst.Else) else single(statements[1:])
    returned = single(switch.body)
    if returned is None or other is None or not (isinstance(other.value, cst.Name) and other.value.value == param):
        return None
    return returned


def _wrapped_callable(call: cst.Call) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            return arg.value
        if arg.keyword.value in ("fun", "f", "fn"):
            return arg.value
    return None

