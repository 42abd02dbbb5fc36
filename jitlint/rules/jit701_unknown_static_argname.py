from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import hidden_static_names, spec_problems
from jitlint.rules._traced import python_value_uses
from jitlint.walk import source_text


class UnknownStaticArgname(Rule):
    """
    ## What it does
    Flags `static_argnames` (or `donate_argnames`) naming something that is not a parameter of
    the jitted function, or naming a positional-only parameter. Functions with `**kwargs` accept
    any name and stay silent, as JAX does. Also flags `static_argnames` given to
    `eqx.filter_jit`, which takes none (`jaxfacts.REJECTED_JIT_KEYWORDS`). And a call that
    passes a `static_argnames` parameter by position when a pass-through decorator of this
    module sits under the jit without `functools.wraps` (`def timed(fn): def wrapper(*args,
    **kwargs): ...`), where the function needs that parameter's value (a shape, an `if`).

    ## Why is this bad?
    `jax.jit` checks the names against the signature when it is applied, at decoration or
    import time. Measured on jax 0.10.2: `ValueError: Jitted function has invalid argnames
    {'q'} in static_argnames. Function does not take these args.` (positional-only: `... These
    are positional-only`). Usually a typo or a renamed parameter. Under a decorator without
    `functools.wraps`, jit sees `(*args, **kwargs)` and accepts any name, but a name is then
    static only as a keyword argument: `chunk_means(x, 4)` traces the 4, and
    `x.reshape(n_chunks, -1)` raises `TypeError: Shapes must be 1D sequences of concrete values
    of integer type` (torchquad#165, `fixtures/static/jit701_static_argname_hidden_by_decorator.py`);
    with `@functools.wraps(fn)` on the wrapper jit reads the signature through `__wrapped__`.

    ## Fix safety
    Name an existing parameter (or use `static_argnums` for a positional-only one). Check which
    argument was meant to be static: fixing the name changes which argument is traced. Adding
    `functools.wraps` to a wrapper only copies the function's metadata; it is always safe.
    """

    code = "JIT701"
    name = "unknown-static-argname"
    summary = "static_argnames/donate_argnames naming no parameter raises ValueError when jit is applied"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnames="mode")
        def forward(x, training):
            return x
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnames="training")
        def forward(x, training):
            return x
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for keyword, node, message in spec_problems(ctx):
            if keyword.endswith("argnames"):
                yield Violation(node, message)
        for arg, func, name, decorator in hidden_static_names(ctx):
            # jit traces every argument the wrapper's *args receives: the others too
            params = {p.name.value for p in (*func.params.posonly_params, *func.params.params)}
            use = python_value_uses(ctx, func, params, "jax.jit").get(name)
            if use is None:
                continue  # traced, and nothing there needs its value
            yield Violation(arg, (
                f"`{name}` of `{func.name.value}` is passed by position here, but `{decorator}` wraps "
                f"`{func.name.value}` without functools.wraps: jit sees `(*args, **kwargs)`, so "
                f"static_argnames=(\"{name}\",) holds only for a keyword argument; passed by position, "
                f"`{name}` is traced and `{source_text(use.node)}` raises on it; add @functools.wraps(fn) to "
                f"`{decorator}`'s wrapper (or pass `{name}=` by keyword)"), related=((use.node, "needs a Python value"),))
