import re
from typing import Iterator

import libcst as cst

from jitlint.jaxfacts import JAX_RANDOM_NUMBER_DRAWS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.values import ARRAY_CONSTRUCTORS, jax_array_built_by, value_flow
from jitlint.walk import source_text

# an item store ``name[...] =`` / ``op=`` (not ``==``), and the calls that make a jax array
_ITEM_STORE = re.compile(r"\b(\w+)\[[^\]\n]*\]\s*(?:\*\*|//|>>|<<|[-+*/%&|^@])?=(?!=)")
_CONSTRUCTED = "(?:" + "|".join(sorted(ARRAY_CONSTRUCTORS | JAX_RANDOM_NUMBER_DRAWS)) + ")"

# ``x[i] op= v`` -> the ``.at[i]`` method that does it out of place
AT_METHODS = {
    cst.AddAssign: "add", cst.SubtractAssign: "subtract", cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide", cst.PowerAssign: "power",
}


class ItemAssignmentOnJaxArray(Rule):
    """
    ## What it does
    Flags an item assignment (`x[i] = v`, `x[:, j] = row`, `x[i] += v`) into a name that holds
    a jax array by construction: every definition reaching it binds a `jax.numpy` constructor
    (`jnp.zeros`, `jnp.array`, `jnp.full`, ... `jnp.concatenate`), a `jax.random` draw, or
    arithmetic on one, in a jitted function or in eager code. The same assignment into a NumPy
    array (`np.zeros`), a list, a dict, or a value the code does not show to be a jax array (a
    parameter, what `lax.scan` returns) stays silent.

    ## Why is this bad?
    JAX arrays are immutable: measured on jax 0.10.2 (CPU), `x = jnp.zeros(3); x[0] = 1.0`
    raises `TypeError: JAX arrays are immutable and do not support in-place item assignment`,
    eagerly and under `jax.jit` alike (a tracer raises it while the function is traced, at the
    first call). A varying-coefficient operator that fills `uu = jnp.zeros(u.shape)` slice by
    slice under `@jit` fails on its first step (v1diffusion;
    `fixtures/trace_errors/item_assignment_into_jnp_zeros_under_jit.py`); the `.at[]` form
    runs and compiles once (`..._at_set_ok.py`), and filling a NumPy buffer eagerly works
    (`..._numpy_buffer_ok.py`).

    ## Example
    ```python
    @jax.jit
    def operator(u, a, b):
        uu = jnp.zeros(u.shape)
        for i in range(u.shape[1]):
            uu[:, i] = a * u[:, i] + b
        return uu
    ```

    ## Use instead
    ```python
    @jax.jit
    def operator(u, a, b):
        uu = jnp.zeros(u.shape)
        for i in range(u.shape[1]):
            uu = uu.at[:, i].set(a * u[:, i] + b)
        return uu
    ```
    (or one vectorised expression: `a * u + b`). `x[i] += v` becomes `x = x.at[i].add(v)`.

    ## Fix safety
    `x = x.at[i].set(v)` computes what the in-place write meant, as a new array bound to the
    same name; other names bound to the old array keep the old values (with NumPy they would
    see the write). Under jit XLA performs the update in place. `--fix` makes that rewrite (the
    write raised before, so nothing that worked changes); it leaves alone a write of several
    targets, an operator with no `.at[]` method (`//=`), a name bound in another scope (the
    rebinding would make it local) and a write in a `try` that catches the TypeError.
    """

    code = "JIT818"
    separate_findings = True  # each write has its own --fix edit
    # eager code too: a file that builds jax arrays and assigns into an item of one
    prefilter_names = frozenset({*(f"jax.numpy.{name}" for name in ARRAY_CONSTRUCTORS),
                                 *(f"jax.random.{name}" for name in JAX_RANDOM_NUMBER_DRAWS)})

    def prefilter_text(self, text: str) -> bool:
        """An item assignment (``x[i] =``, ``x[i] +=``) into a name the text also binds to a
        constructor or draw call (``x = jnp.zeros(...)``, also annotated, any alias of the
        module)."""
        return any(re.search(rf"\b{re.escape(name)}\s*(?::[^=\n]*)?=\s*[\w.]+\.{_CONSTRUCTED}\(", text)
                   for name in set(_ITEM_STORE.findall(text)))
    name = "item-assignment-on-jax-array"
    summary = "item assignment into a jax array raises TypeError (they are immutable); use x = x.at[i].set(v)"
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def fill(x):
            out = jnp.zeros(3)
            out[0] = x
            return out
        """,
        """
        import jax
        import jax.numpy as jnp

        counts = jnp.zeros(10)
        for label in [1, 2, 2]:
            counts[label] += 1
        weights = jax.jit(lambda c: c / c.sum())(counts)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def fill(x):
            out = jnp.zeros(3)
            out = out.at[0].set(x)
            return out
        """,
        """
        import jax
        import numpy as np

        counts = np.zeros(10)
        for label in [1, 2, 2]:
            counts[label] += 1
        weights = jax.jit(lambda c: c / c.sum())(counts)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        flow = value_flow(ctx)
        for _, frame, write in ctx.model.item_writes:
            target = write.target if isinstance(write, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) else None
            stores = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
            for store in stores:
                if not (isinstance(store, cst.Subscript) and isinstance(store.value, cst.Name)):
                    continue
                made = jax_array_built_by(flow, store.value, frame.scope)
                if made is None:
                    continue
                name = store.value.value
                index = source_text(store, 200)[len(name):]
                method = AT_METHODS.get(type(write.operator)) if isinstance(write, cst.AugAssign) else "set"
                fix = f"write `{name} = {name}.at{index}.{method}(...)`" if method else \
                    f"write `{name} = {name}.at{index}...` with the matching .at[] method"
                operator = source_text(write.operator, 10).strip() if isinstance(write, cst.AugAssign) else "="
                yield Violation(store, (
                    f"`{source_text(store, 200)} {operator} ...` assigns into `{name}`, a jax array "
                    f"(`{source_text(made.func, 60)}(...)`): "
                    f"JAX arrays are immutable, so it raises TypeError, eagerly and under jit alike; {fix}"),
                    related=((made, f"`{name}` is made here"),))
