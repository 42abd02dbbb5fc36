from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._stale import NNX_UPDATED, stale_reads


class JitClosesOverNnxModule(Rule):
    """
    ## What it does
    Flags a jitted function (`nnx.jit` or `jax.jit`) that reads a global (or enclosing
    function's) Flax NNX module or optimizer instead of taking it as an argument, when the
    program updates that object between calls: trains it with `optimizer.update(model, grads)`,
    passes it to an `nnx.jit` train step, `nnx.update`s it, or assigns its variables.

    ## Why is this bad?
    A module read from outside is not an input of the trace: its weights are baked into the
    compiled code as constants at the first call. Measured with flax 0.12.8, jax 0.10.2: an
    `@nnx.jit def predict(x): return model(x)` called before 20 training steps returns, after
    them, exactly its first output (0.0710) while `model(x)` gives 3.7e-09; `@jax.jit` behaves
    the same. It also embeds every weight in the program, which makes compiling slow for
    large models.

    ## Fix safety
    Take the module as an argument (`def predict(model, x)` under `nnx.jit`; for `jax.jit`
    pass `nnx.split` state and `nnx.merge` inside). Safe: later calls see the current weights
    and the function compiles once for them.
    """

    code = "JIT610"
    name = "jit-closes-over-nnx-module"
    summary = "jitted function reads a global NNX module that training updates; the weights stay baked in"

    INVALID = [
        """
        import optax
        from flax import nnx

        model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
        optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)

        @nnx.jit
        def predict(x):
            return model(x)

        @nnx.jit
        def train_step(model, optimizer, x, y):
            grads = nnx.grad(lambda m: ((m(x) - y) ** 2).mean())(model)
            optimizer.update(model, grads)

        def fit(x, y):
            print(predict(x))
            for step in range(20):
                train_step(model, optimizer, x, y)
            print(predict(x))
        """,
    ]
    VALID = [
        """
        import optax
        from flax import nnx

        model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
        optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)

        @nnx.jit
        def predict(model, x):
            return model(x)

        @nnx.jit
        def train_step(model, optimizer, x, y):
            grads = nnx.grad(lambda m: ((m(x) - y) ** 2).mean())(model)
            optimizer.update(model, grads)

        def fit(x, y):
            print(predict(model, x))
            for step in range(20):
                train_step(model, optimizer, x, y)
            print(predict(model, x))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for stale in stale_reads(ctx):
            if stale.how != NNX_UPDATED:
                continue
            function = stale.function.name.value
            yield Violation(stale.node, (
                f"jitted `{function}` reads the NNX object `{stale.name}`, which is updated in "
                f"place between its calls: its weights are baked in at the first trace, so later "
                f"calls silently use the old ones; pass `{stale.name}` as an argument"))
