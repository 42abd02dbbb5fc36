from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._arguments import ARRAY, FLAG, FUNCTION, OBJECT, non_jax_value
from jitlint.rules._jitted import TRACING_JITS, jitted_functions, jitted_lambdas
from jitlint.rules._static import non_jax_traced_uses
from jitlint.walk import own_nodes


class NonJaxTypeReturn(Rule):
    """
    ## What it does
    Flags a function jitted with `jax.jit` (or pjit) that returns a value that is not a valid
    JAX type: a function (a lambda, a `def`, a `functools.partial`), a class or dtype object, a
    `str` or `bytes`, a member of an `enum.Enum` class of this module (also read from a static
    field of a pytree dataclass annotated with it), an instance of a plain class of this module,
    a `jax.Device`, Sharding or optimizer (`jitlint/jaxfacts.py: NON_JAX_RESULTS`), a NumPy
    array of strings or objects, or a tuple, list or dict holding one of these. The values are
    recognised as JIT807 recognises its arguments (`jitlint rule JIT807`). Arrays, Python
    scalars, None, shapes, pytrees of those, a `jax.tree_util.Partial` and an `IntEnum` member
    stay silent, and so does `eqx.filter_jit`, which returns non-array outputs as they are.
    An instance of a plain class that a call also passes traced is left to JIT807: the call
    raises at that argument before the return is reached, and the fix, in the class, is one.
    Also a generator function given to `jax.jit` (it yields: jax#2132).

    ## Why is this bad?
    jit turns every output leaf into an array. Measured on jax 0.10.2 (CPU): returning a
    lambda, a function, a class, a str, bytes, an enum member (also a static field of a
    `register_dataclass`), a plain object, a `functools.partial`, a dtype, a `jax.Device` or a
    NumPy array of strings raises `TypeError: function f at ... traced for jit returned a value
    of type <class 'function'>, which is not a valid JAX type` on the first call, after the
    whole function was traced (`fixtures/output_values/`). `jax.jit` of a generator function
    raises `TypeError: Expected a function, got a generator function` where it is applied.

    ## Fix safety
    Return only arrays (and pytrees of them). A Python value that does not depend on the traced
    inputs (a mode, an enum, a function) is known before the call: compute it outside the jitted
    function. To return a function with bound arrays, return a `jax.tree_util.Partial`; to
    return non-array values with the arrays, use `eqx.filter_jit`.
    """

    code = "JIT808"
    name = "non-jax-type-return"
    summary = "a jitted function returning a function, class, str, enum or plain object raises TypeError"
    severity = "error"

    INVALID = [
        """
        import jax

        @jax.jit
        def make_scaler(w):
            return lambda x: x * w
        """,
    ]
    VALID = [
        """
        import jax

        @jax.jit
        def scale(w, x):
            return x * w
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        # (jitted function, class) where a call passes an instance of a plain class traced: the
        # call raises there first (JIT807), and the fix, in the class, is the same
        passed = {(use.spec.name, found.name) for use, found in non_jax_traced_uses(ctx) if found.kind == OBJECT}
        for jitted in (*jitted_functions(ctx).values(), *jitted_lambdas(ctx).values()):
            if not jitted.apps or any(app.jit.qualname not in TRACING_JITS for app in jitted.apps):
                continue
            func = jitted.func
            scope = ctx.model.scope_of.get(func)
            if scope is None:
                continue
            name = func.name.value if isinstance(func, cst.FunctionDef) else "<lambda>"
            related = tuple((app.anchor, "jitted here") for app in jitted.apps)
            produced = next((n for n in own_nodes(func.body) if isinstance(n, cst.Yield)), None) \
                if isinstance(func, cst.FunctionDef) else None
            if produced is not None:  # jax#2132
                yield Violation(jitted.apps[0].anchor, (
                    f"`{name}` is a generator function (it yields), which jit cannot trace: applying "
                    f"jax.jit raises TypeError (\"Expected a function, got a generator function\"); "
                    f"jit a function that returns arrays (stack the values, or write the loop with "
                    f"jax.lax.scan) and iterate outside it"), ((produced, "the yield"),))
                continue
            for value in _returned(func):
                found = non_jax_value(ctx, value, scope)
                if found is not None and found.kind == OBJECT and (name, found.name) in passed:
                    continue
                if found is not None and found.kind != FLAG:  # a flag layer's leaves come back as arrays
                    yield Violation(value, (
                        f"jitted `{name}` returns {found.what}, not a valid JAX type: jit makes every "
                        f"output an array, so the first call raises TypeError once tracing ends; "
                        f"{_fix(found.kind)}"), related)


def _returned(func) -> Iterator[cst.BaseExpression]:
    """What a lambda or def returns (its own ``return`` statements, not nested functions')."""
    if isinstance(func, cst.Lambda):
        yield func.body
        return
    for node in own_nodes(func.body):
        if isinstance(node, cst.Return) and node.value is not None:
            yield node.value


def _fix(kind: str) -> str:
    if kind == FUNCTION:
        return ("apply the function inside and return its arrays, or return a jax.tree_util.Partial "
                "(a pytree) to bind arrays to a function")
    if kind == OBJECT:
        return "return its arrays, or register its class as a pytree (jax.tree_util.register_dataclass)"
    if kind == ARRAY:
        return "keep non-numeric data outside the jitted function"
    return ("it does not depend on the traced inputs, so compute it outside the jitted function "
            "(or use eqx.filter_jit, which returns non-array outputs as they are)")
