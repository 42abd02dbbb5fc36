from typing import Iterator

from jitlint.jitnames import JIT_FUNCTIONS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._lifted import lifted_specs
from jitlint.rules._traced import python_value_uses


class StaticArgnumsLeavePythonValueTraced(Rule):
    """
    ## What it does
    Flags the `static_argnums` of a transform with a static spec of its own besides `jax.jit`
    (`jax.checkpoint` / `jax.remat`, `nnx.remat`, and flax.linen's lifted `nn.remat`,
    `nn.checkpoint`, `nn.jit`: `jitlint/jaxfacts.py: STATIC_SPEC_TRANSFORMS`) when it leaves
    traced a parameter that the function uses as a Python value (an `if`, `not`, `int()`, a
    shape: what JIT801-JIT806 know). For the linen transforms the Module, `self` of its
    `__call__`, is argument 0, so `static_argnums=(1,)` over `__call__(self, x, train)` marks
    `x`, not `train` (flax#3946); the message names the positions that make the flag static.

    ## Why is this bad?
    The transform traces every argument its spec does not name. Measured on jax 0.10.2 / flax
    0.12 (CPU): `nn.remat(MLP, static_argnums=(1,))` over `__call__(self, x, train)` with
    `nn.BatchNorm(use_running_average=not train)` raises `TracerBoolConversionError` at
    `model.init`; `static_argnums=(2,)` works. `jax.checkpoint(f, static_argnums=(0,))` with
    `if train:` on the second parameter raises the same error, eagerly too
    (`fixtures/static/`).

    ## Fix safety
    Name the parameter's position (counting `self` for the linen transforms). Safe: the flag
    is a Python value at every call; a position that named an array must not stay static.
    """

    code = "JIT704"
    name = "static-argnums-leave-python-value-traced"
    summary = "a remat/checkpoint static_argnums that misses a flag the function uses as a Python value"
    severity = "error"
    prefilter_names = frozenset({"flax.linen.remat", "flax.linen.checkpoint", "flax.nnx.remat",
                                 "jax.checkpoint", "jax.remat"})

    INVALID = [
        """
        import flax.linen as nn

        class MLP(nn.Module):
            @nn.compact
            def __call__(self, x, train):
                x = nn.BatchNorm(use_running_average=not train)(x)
                return nn.Dense(1)(x)

        MLP = nn.remat(MLP, static_argnums=(1,))
        """,
    ]
    VALID = [
        """
        import flax.linen as nn

        class MLP(nn.Module):
            @nn.compact
            def __call__(self, x, train):
                x = nn.BatchNorm(use_running_average=not train)(x)
                return nn.Dense(1)(x)

        MLP = nn.remat(MLP, static_argnums=(2,))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for lifted in lifted_specs(ctx):
            if lifted.qualname in JIT_FUNCTIONS:
                continue  # a jit-like (pmap): JIT801-JIT806 read its spec and report the use itself
            count = len(lifted.params)
            if any(n >= count or -n > count for n in lifted.nums):
                continue  # JIT702: the call raises ValueError before tracing
            static = {n % count for n in lifted.nums}
            traced = {p for i, p in enumerate(lifted.params) if i >= lifted.skipped and i not in static}
            if not traced:
                continue
            uses = python_value_uses(ctx, lifted.func, traced, lifted.short)
            if not uses:
                continue
            param, use = next(iter(uses.items()))
            marked = ", ".join(f"`{lifted.params[n]}`" for n in sorted(static)) or "nothing"
            needed = {lifted.params.index(p) for p in uses}
            shifted = {n + 1 for n in static}
            # the usual slip: positions counted without `self`
            if lifted.skipped and needed <= shifted:
                wanted = tuple(sorted(shifted))
                fix = f"use static_argnums={wanted if len(wanted) != 1 else f'({wanted[0]},)'}"
            else:
                fix = f"add position {lifted.params.index(param)} (`{param}`) to static_argnums"
            error = use.message.split(": it raises ", 1)[1].split(";")[0] if ": it raises " in use.message \
                else use.message.split(" raises ", 1)[1].split(";")[0] if " raises " in use.message else "an error"
            yield Violation(lifted.keyword, (
                f"{lifted.named()} marks {marked} of `{lifted.owner}` "
                f"({', '.join(lifted.params)}) and leaves `{param}` traced, which the function uses "
                f"as a Python value: it raises {error}; {fix}"),
                related=((use.node, f"`{param}` used as a Python value"),))
