"""Which expressions are jit, and where jit is applied.

A callee is jit-like when it resolves (through imports, aliases and ``functools.partial``) to
one of ``JIT_FUNCTIONS`` or to a name the user configured in ``extra-jit-functions``.  Text is
never matched: ``numba.jit`` or a user's own ``def jit`` resolve to other names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Sequence, Union

import libcst as cst

from jitlint.semantic import Frame, Scope, SemanticModel

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
# Under these every non-array argument is static (equinox's filtering).
FILTERING_JIT_FUNCTIONS = frozenset({"equinox.filter_jit", "equinox.filter_pmap"})
PARTIAL_FUNCTIONS = frozenset({"functools.partial"})

# Words that must occur in a file's text for any jit to be resolvable in it; used by the
# prefilter.  ``jit`` covers jit, pjit, filter_jit; ``pmap`` covers pmap and filter_pmap.
JIT_WORDS = ("jit", "pmap")


@dataclass(frozen=True)
class JitRef:
    """A resolved jit-like callee: its qualified name and keyword arguments bound so far."""

    qualname: str
    keywords: tuple[cst.Arg, ...] = ()

    @property
    def display(self) -> str:
        return self.qualname.replace("jax.experimental.pjit.pjit", "pjit")


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
    def __init__(self, model: SemanticModel, extra_jit_functions: Sequence[str] = ()) -> None:
        self.model = model
        self.jit_names = JIT_FUNCTIONS | frozenset(extra_jit_functions)

    def resolve(self, expr: cst.BaseExpression, scope: Scope, _depth: int = 0) -> Optional[JitRef]:
        """The jit an expression denotes when called, or None."""
        if _depth > 6:
            return None
        if isinstance(expr, (cst.Name, cst.Attribute)):
            qualname = self.model.qualified_name(expr, scope)
            qualname = JIT_SPELLINGS.get(qualname, qualname) if qualname else qualname
            if qualname in self.jit_names:
                return JitRef(qualname)
            if isinstance(expr, cst.Name):
                wrapper = self._wrapper(expr, scope, _depth)
                if wrapper is not None:
                    return wrapper
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
                    return JitRef(inner.qualname, inner.keywords + keywords)
                return None
            # ``jax.jit(static_argnames=...)`` used as a decorator factory.
            inner = self.resolve(expr.func, scope, _depth + 1)
            if inner is not None and _wrapped_callable(expr) is None:
                keywords = tuple(a for a in expr.args if a.keyword is not None)
                return JitRef(inner.qualname, inner.keywords + keywords)
        return None

    def _wrapper(self, name: cst.Name, scope: Scope, depth: int) -> Optional[JitRef]:
        """A project's own ``def my_jit(f, ...): return jax.jit(f, ...)``: jit under another name."""
        binding = self.model.single_binding(name.value, scope)
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
            return None
        function = binding.node
        if function.decorators:
            return None
        params = [*function.params.posonly_params, *function.params.params]
        statements = [s for s in function.body.body if not _is_docstring(s)] \
            if isinstance(function.body, cst.IndentedBlock) else []
        if not params or len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
            return None
        returned = statements[0].body[0]
        if not isinstance(returned, cst.Return) or not isinstance(returned.value, cst.Call):
            return None
        call = returned.value
        wrapped = _wrapped_callable(call)
        if not (isinstance(wrapped, cst.Name) and wrapped.value == params[0].name.value):
            return None
        inner = self.resolve(call.func, self.model.scope_of[function], depth + 1)
        if inner is None:
            return None
        keywords = tuple(a for a in call.args if a.keyword is not None)
        return JitRef(inner.qualname, inner.keywords + keywords)

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


def _is_docstring(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Expr) \
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _wrapped_callable(call: cst.Call) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            return arg.value
        if arg.keyword.value in ("fun", "f", "fn"):
            return arg.value
    return None

