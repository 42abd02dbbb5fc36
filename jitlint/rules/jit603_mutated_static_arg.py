from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._mutated import mutated_static_args


class MutatedStaticArg(Rule):
    """
    ## What it does
    Flags an object passed as a static argument of a jitted function, or the static `self` of a
    jitted method (`@partial(jax.jit, static_argnums=0)`), that is changed between two calls or
    in the loop that calls: an attribute or item write (`cfg.scale = 3.0`, `m.data += 1`),
    `setattr`, a method of its class that writes `self.<attr>` (`t.assign_fn(g)`), or a function
    of the module that writes an attribute of the parameter it is given, also as one element of
    a tuple target (`agent.scale, log = ...`) and through a property setter that assigns
    `self.<attr>` (a setter that changes the objects it holds, `self.model.params = ...`, is
    not followed: dreamax 7f1c3e3's fix was reported otherwise). The object is one a
    call builds (`cfg = Config(2.0)`), or a parameter every caller passes such a call
    (`train(x, Config(1.0))` from `main()`, the loop in `train`), or the receiver of the method
    that calls the jitted method on `self` (`train` calling `self.q_loss(...)`, or
    `jax.grad(self.q_loss)(...)`, directly or through another method, and storing
    `self.ac.q_params = ...` between the calls: the message names the path below the
    attribute that changes), also a base class's method (`__call__` running
    `self.jax_implementation(...)`, the subclass's jitted override: an operator called as
    `collision(f, feq)`, XLB c87b3a5), and an instance of a subclass that inherits the jitted
    method or the method that writes (an agent's `update` storing `self._params,
    self._opt_state = self.update_model(...)` after each call, every attribute of the tuple
    target counted: the jitted update that reads `self._opt_state` restarts Adam from its first
    state on every call, a step count of 1, 1, 1 instead of 1, 2, 3, varibad_jax b1d06bf;
    `fixtures/stale_values/static_self_learner_reads_own_optimizer_state.py`). The finding is on the
    jitted body's read of what changed, where the old value is baked in; an attribute the body
    never reads (directly or through a method of the class it calls), such as a call counter,
    is left alone, and so is one it reads only to log it or to hand it to a method of the class
    whose parameter that method, and every override of it in the module, ignores
    (`self.calculate_update(grads, self.epoch)` of a plain SGD; an Adam override that uses
    `epoch` is flagged).

    ## Why is this bad?
    jit keys its cache on each static argument's hash and equality, and keeps the object itself
    as the key, so the changed object still finds its first trace. Measured on jax 0.10.2
    (CPU), one object changed four times between calls: 1 trace and the first setting's result
    every time, for a plain class (identity hash), a `__hash__` over the changed field with or
    without a matching `__eq__`, and dataclasses with `eq=False` or `unsafe_hash=True`; a static
    `self` whose attribute (a value or a function) is reassigned (also below it:
    `self.ac.q_params` stored by the training loop leaves the loss at its first value, 2.0
    three times where the code without jit gives 2.0, 1.6, 1.28), and a registered pytree passed
    static with `m.data += 1`, likewise return the old result.

    ## Fix safety
    Pass the changing value as a traced argument (a function: as a static argument, so a new
    function is a new trace), pass a registered pytree as a normal argument, or build a new
    immutable object (a frozen dataclass, a NamedTuple) for each setting: each then compiles
    once and results follow the setting.
    """

    code = "JIT603"
    name = "mutated-static-arg"
    summary = "a static argument mutated between calls: jit silently reuses the old trace"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @partial(jax.jit, static_argnums=1)
        def apply(x, cfg):
            return x * cfg.scale

        cfg = Config(2.0)
        print(apply(jnp.ones(2), cfg))
        cfg.scale = 3.0
        print(apply(jnp.ones(2), cfg))
        """,
    ]
    VALID = [
        """
        from functools import partial
        from typing import NamedTuple

        import jax
        import jax.numpy as jnp

        class Config(NamedTuple):
            scale: float

        @partial(jax.jit, static_argnums=1)
        def apply(x, cfg):
            return x * cfg.scale

        print(apply(jnp.ones(2), Config(2.0)))
        print(apply(jnp.ones(2), Config(3.0)))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for found in mutated_static_args(ctx):
            name = found.name
            changed = found.path
            what = f"`{changed}`" if changed else f"`{name}.{found.attribute}`" if found.attribute else f"`{name}`"
            role = "the static `self`" if found.receiver else "a static argument"
            if found.pytree_class is not None:
                fix = (f"`{found.pytree_class}` is a registered pytree: pass `{name}` as a traced "
                       f"argument (drop it from static_argnums), so its arrays are inputs")
            elif found.called:
                fix = (f"`{found.attribute}` is a function: make it a static argument of "
                       f"`{found.callee}` (a new function is then a new trace) instead of reading "
                       f"it from `{name}`")
            elif found.receiver:
                passed = changed or found.attribute
                fix = (f"pass {'`' + passed + '`' if passed else 'what changes'} "
                       f"to `{found.callee}` as an argument instead of reading it from `self`, or "
                       f"make the class a pytree and drop static_argnums=0")
            else:
                fix = (f"pass {'`' + found.attribute + '`' if found.attribute else 'what changes'} "
                       f"as a traced argument, or make the object immutable (a frozen dataclass, "
                       f"a NamedTuple) and build a new one for each setting")
            yield Violation(found.node, (
                f"`{name}` is {role} of `{found.callee}` and {what} changes between calls: jit "
                f"keeps the first trace for that object (jax 0.10.2 reuses it whether the class "
                f"hashes by identity or by its fields), so later calls silently compute with the "
                f"old value; {fix}"), (
                (found.passed, f"`{name}` is passed static here"),
                (found.mutation, f"{what} changes here")))

