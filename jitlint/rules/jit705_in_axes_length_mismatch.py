from typing import Iterator

import libcst as cst

from jitlint.jaxfacts import TRACING_CALLS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._lifted import AxesSpec, axes_specs


class InAxesLengthMismatch(Rule):
    """
    ## What it does
    Flags a literal `in_axes` tuple of `jax.vmap`, `jax.pmap` or `nnx.vmap` whose length does
    not match the positional arguments a call of the transformed function passes: the
    transform call itself (`jax.vmap(f, in_axes=(0, None))(x, y, z)`), a name bound to it
    (also through `jax.jit(jax.vmap(...))`), or the def it decorates
    (`@partial(jax.vmap, in_axes=...)`). For `pmap` with `static_broadcasted_argnums`, the
    tuple is indexed by argument position, so it needs an entry up to the last mapped
    argument (the static slots included). Arguments passed by keyword are not counted:
    `jax.vmap` maps them over axis 0 whatever `in_axes` says (a call of an `nnx.vmap`
    function with keyword arguments is left alone: nnx binds them to positions first).

    ## Why is this bad?
    The transform matches `in_axes` to the positional arguments of each call. Measured on jax
    0.10.2 (CPU): `jax.vmap(f, in_axes=(0, None))(a, b, c)` raises `ValueError: vmap in_axes
    must be an int, None, or a tuple of entries corresponding to the positional arguments
    passed to the function, but got len(in_axes)=2, len(args)=3`; `pmap` raises ValueError
    ("pytree structure error: different lengths of tuple"); `pmap` with
    `static_broadcasted_argnums=(2,)` and `in_axes=(0, None, 0)` over four arguments raises
    IndexError (jax#6302).

    ## Fix safety
    Give one entry per positional argument (`None` for those not mapped, and a placeholder
    for pmap's static ones). Check which argument each entry was meant for: a shifted tuple
    maps the wrong arguments.
    """

    code = "JIT705"
    name = "in-axes-length-mismatch"
    summary = "a vmap/pmap in_axes tuple whose length does not match the positional arguments of a call raises"
    severity = "error"
    # files that vmap with an in_axes tuple, without any jit
    prefilter_names = frozenset(q for q, fact in TRACING_CALLS.items() if fact.wraps and fact.in_axes is not None)
    prefilter_words = ("in_axes",)

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        def loss(params, x, y):
            return jnp.sum((params * x - y) ** 2)

        per_example = jax.vmap(loss, in_axes=(None, 0))
        print(per_example(jnp.ones(3), jnp.ones((8, 3)), jnp.ones((8, 3))))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        def loss(params, x, y):
            return jnp.sum((params * x - y) ** 2)

        per_example = jax.vmap(loss, in_axes=(None, 0, 0))
        print(per_example(jnp.ones(3), jnp.ones((8, 3)), jnp.ones((8, 3))))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for spec in axes_specs(ctx):
            wrong = [(site.node, passed) for site in spec.calls
                     for passed in [_positional(spec, site.node)] if passed is not None and _mismatch(spec, passed)]
            if not wrong:
                continue
            call, passed = wrong[0]
            entries = len(spec.axes.elements)
            if spec.static:
                problem = (f"has {entries} entr{'y' if entries == 1 else 'ies'}, but `{spec.owner}` is "
                           f"called with {passed} positional arguments and pmap indexes in_axes by "
                           f"position, static_broadcasted_argnums={tuple(sorted(spec.static))} included: "
                           f"the call raises {'IndexError' if entries < passed else 'ValueError'}")
            else:
                problem = (f"has {entries} entr{'y' if entries == 1 else 'ies'}, but `{spec.owner}` is "
                           f"called with {passed} positional argument{'s' if passed != 1 else ''}: "
                           f"{spec.short.rpartition('.')[2]} raises ValueError")
            every = len(wrong) == len([s for s in spec.calls if _positional(spec, s.node) is not None])
            node = spec.keyword if every else call
            yield Violation(node, (
                f"in_axes of `{spec.short}` {problem}; give one entry per positional argument "
                f"(None for an argument that is not mapped{', the static ones included' if spec.static else ''})"),
                related=() if node is call else ((call, f"called with {passed} positional arguments"),))


def _positional(spec: AxesSpec, call: cst.Call):
    """How many positional arguments ``call`` passes (None: unknown: ``*args``, or keyword
    arguments where they take entries too)."""
    if any(a.star or (spec.keywords_take_axes and a.keyword is not None) for a in call.args):
        return None
    return sum(1 for a in call.args if a.keyword is None)


def _mismatch(spec: AxesSpec, passed: int) -> bool:
    entries = len(spec.axes.elements)
    if not spec.static:
        return entries != passed
    mapped = [i for i in range(passed) if i not in spec.static]
    return bool(mapped) and max(mapped) >= entries
