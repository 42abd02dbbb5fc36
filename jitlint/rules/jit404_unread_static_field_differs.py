from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._module_fields import differing_statics


class UnreadStaticFieldDiffers(Rule):
    """
    ## What it does
    Flags a pytree instance (a `jax.tree_util.register_dataclass` / `flax.struct` dataclass, an
    `equinox.Module`) passed to a jitted function when a field marked static
    (`field(metadata={"static": True})`, `struct.field(pytree_node=False)`,
    `eqx.field(static=True)`) holds another constant than in an instance passed to the same
    function before, and the function never reads that field (`jitlint/rules/_module_fields.py`).

    ## Why is this bad?
    Static fields are part of the pytree's structure, which every jit keys its cache on: each
    new value compiles the function again, although nothing in it depends on the field
    (jax#33043). Measured on jax 0.10.2 (CPU): `Shape(length, 2)` then `Shape(length, 3)` passed
    to a jitted `area` that reads only `length` compile twice in four calls
    (`fixtures/changing_statics/`).

    ## Fix safety
    Drop the static marking (an int field is then a traced leaf), or keep the value outside the
    pytree. If the body needs the value as a Python value later, a compile per distinct value is
    the price of that, and this finding does not apply.
    """

    code = "JIT404"
    name = "unread-static-field-differs"
    summary = "a static pytree field the jitted function never reads differs between calls: a recompile per value"

    INVALID = [
        """
        from dataclasses import dataclass, field

        import jax
        import jax.numpy as jnp

        @jax.tree_util.register_dataclass
        @dataclass
        class Shape:
            length: jax.Array
            idx: int = field(default=1, metadata={"static": True})

        @jax.jit
        def area(shape):
            return shape.length * shape.length

        area(Shape(jnp.asarray(1.0), 2))
        area(Shape(jnp.asarray(1.0), 3))
        """,
    ]
    VALID = [
        """
        from dataclasses import dataclass, field

        import jax
        import jax.numpy as jnp

        @jax.tree_util.register_dataclass
        @dataclass
        class Shape:
            length: jax.Array
            idx: int = field(default=1, metadata={"static": True})

        @jax.jit
        def area(shape):
            return shape.length * shape.length

        area(Shape(jnp.asarray(1.0), 2))
        area(Shape(jnp.asarray(3.0), 2))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in differing_statics(ctx):
            now = cst.Module([]).code_for_node(use.value)
            before = cst.Module([]).code_for_node(use.earlier)
            yield Violation(use.arg, (
                f"this `{use.cls}` has `{use.field}={now}` where an earlier one passed to `{use.callee}` "
                f"had `{use.field}={before}`; `{use.field}` is a static field, part of the cache key of "
                f"every jit, so `{use.callee}` compiles again although it never reads `{use.field}`; "
                f"drop the static marking (an int field is then a traced leaf) or keep it out of the pytree"),
                related=((use.earlier, f"the earlier `{use.field}`"),))
