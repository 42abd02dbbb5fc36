from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import jitted_call_sites, specs
from jitlint.rules._traced import needs_python_value
from jitlint.walk import source_text as _code


class StaticArgnumPassedByKeyword(Rule):
    """
    ## What it does
    Flags a parameter made static only by position (`static_argnums`) in a jit that also
    gives `static_argnames`, when a call passes it by keyword and the body needs its Python
    value (a shape, a `range`, an `if`: what JIT801-JIT806 know). The finding sits on
    `static_argnums`, quoting the call (maxtext 6f5ae52: `static_argnums=(4,)` for
    `reduce_group_size` beside `static_argnames=(...)`, every caller passing
    `reduce_group_size=...`).

    ## Why is this bad?
    `jax.jit` maps positions to names (and names to positions) from the signature only when
    one of `static_argnums` / `static_argnames` is left out. With both given, each is taken as
    written: a parameter listed only in `static_argnums` is static when passed by position
    and traced when passed by keyword. Measured on jax 0.10.2:
    `jax.jit(f, static_argnums=(1,), static_argnames=("mode",))` called as `f(x, size=4)`
    traces `size`, and `jnp.zeros((size,))` raises TypeError ("Shapes must be 1D sequences
    of concrete values"); `f(x, 4)` works (`fixtures/static/`).

    ## Fix safety
    Add the parameter to `static_argnames` too (or pass it by position). Nothing else
    changes: the calls that already pass it by position stay static.
    """

    code = "JIT706"
    name = "static-argnum-passed-by-keyword"
    summary = "a parameter static only by position, passed by keyword beside static_argnames, is traced"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=(1,), static_argnames=("mode",))
        def chunk(x, size, mode="sum"):
            return jnp.zeros((size,)) + x.sum()

        chunk(jnp.ones(3), size=4)
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames=("size", "mode"))
        def chunk(x, size, mode="sum"):
            return jnp.zeros((size,)) + x.sum()

        chunk(jnp.ones(3), size=4)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        apps = {id(spec): app for app, spec in specs(ctx)}
        found: dict[int, list[tuple[str, cst.Call, cst.Arg]]] = {}
        for site, spec, _ in jitted_call_sites(ctx):
            if id(spec) not in apps or spec.static_argnums is None or spec.static_argnames is None:
                continue  # with one of the two left out, jax maps names and positions itself
            by_position = {spec.param_at(n) for n in spec.static_argnums if n >= 0} - set(spec.static_argnames) - {None}
            for arg in site.node.args:
                name = arg.keyword.value if arg.keyword is not None else None
                if name in by_position and needs_python_value(ctx, spec.name, name):
                    found.setdefault(id(spec), []).append((name, site.node, arg))
        for key, uses in found.items():
            app = apps[key]
            names = list(dict.fromkeys(name for name, _, _ in uses))
            shown = ", ".join(f"`{name}`" for name in names)
            marking = next((a for a in app.keywords if a.keyword is not None
                            and a.keyword.value == "static_argnums"), app.anchor)
            yield Violation(marking, (
                f"{shown} {'is' if len(names) == 1 else 'are'} static only by position here, but "
                f"`{_code(uses[0][1])}` passes {'it' if len(names) == 1 else 'them'} by keyword: with "
                f"static_argnames also given, jit does not map names to positions, so the value is "
                f"traced and the body's use of it as a Python value raises; add "
                f"{' and '.join(repr(n) for n in names)} to static_argnames"),
                related=tuple((arg, f"passes `{name}` by keyword") for name, _, arg in uses),
                repeated_at=uses[0][2], runs_at_repeat=True)  # --confirm: the call raises there
