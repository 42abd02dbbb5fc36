from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.walk import iter_nodes, source_text as _src
from jitlint.rules._traced import CHOOSABLE_TRACING_MODULES, TRACING_CALL_NAMES, TRACING_METHODS, TRACING_TRANSFORM_NAMES, tracer_uses
from jitlint.rules._static import reads_shifted_meant_param


class PythonControlFlowOnTracer(Rule):
    """
    ## What it does
    Flags Python `if`, `while`, `assert`, conditional expressions, comprehension `if`s and the
    `and` / `or` / `not` operators applied to a traced value inside a jitted function: a
    non-static parameter, or a value computed from one (also of a `@staticmethod` jitted
    through the instance, `jax.jit(self._step, ...)`, whose every parameter is its own: JAX-ENT
    5d7a40e). `.shape`, `.ndim`, `.dtype`, `len()`,
    `isinstance()`, `is None` tests and static parameters are concrete and stay silent, and
    so are parameters the code states are containers: annotated `dict`, `Mapping`,
    `Optional[dict]`, `list[...]` ..., given a container default (`opts={}`), used as
    `params or {}` (a dict's truth value is a Python bool whatever arrays it holds), or filled
    by every call of the module with a tuple, list or dict (`tuple(jnp.asarray(c) for c in
    cols)`: `fixtures/trace_errors/truth_of_tuple_argument_ok.py`). Values
    computed from constants inside `with jax.ensure_compile_time_eval():` (or
    `jax.core.eval_context()`) are concrete, and a
    test guarded by `isinstance(v, jax.core.Tracer)` (`if not isinstance(c, jax.core.Tracer) and
    c:`, or the branch of such an `if` that sees no tracer) converts no tracer. A concrete jax
    array read from outside (a module global, a closure: `W = jnp.ones(3)`) is concrete itself,
    but any jax operation on it in staged code is staged out, so `if (W > 0).all():` raises too;
    so does one on a helper's parameter that such an array is passed to (`float(ub[i])` in a
    helper given the global bounds `ub`, pounce#795: JIT802). `assert isinstance(y, int)` (or
    `float`, `bool`, `complex`) of a traced value fails too: a tracer is never a Python number
    (jaxtyping#12: AssertionError while tracing). Python's `max(i)` / `min(i)` / `sorted(i)` of
    one traced array iterates it and compares the elements (fmmax 07f422c).
    Library solvers given a traced argument return traced results
    (`jaxfacts.ARGUMENT_TRACED_LIBRARY_FUNCTIONS`): `if not diffrax.is_okay(sol.result):` or
    `if sol.ys[-1, 0] < 0.5:` after `diffrax.diffeqsolve(..., args=rate)` in a traced body
    (also a numpyro model run by MCMC: DynODE#447), and optimistix's and lineax's `value` and
    `result`.
    `max(a, b)`, `min(...)` and `sorted(...)` of traced values compare them with `<` and count too.
    Traced code also means the functions handed to `jax.vmap` and to `lax.scan` / `fori_loop` /
    `while_loop` / `cond` / `map` (jitted or not), the defs decorated with a transform that
    traces them (`@jax.vmap`, `@jax.remat` / `@jax.checkpoint`: jax#10602, `@partial(jax.vmap,
    in_axes=(0, None))`, whose unmapped parameters stay as passed), the open parameters of
    `jax.jit(functools.partial(f, ...))`, and a flax.linen Module's `__call__` under
    `jax.jit(model.apply)` or `model.apply(...)` in traced code (or the method that
    `model.apply(..., method=Normalizer.accumulate)` names, also as a string; its variables'
    `.value` are traced: gnn-jax's normalizer, IndexError), and an equinox Module's
    `__call__` (or another method) called in an `eqx.filter_jit` function, an `nnx.Module`'s
    `__call__` called in an `nnx.jit` function (its layers, `self.linear(x)`, return arrays;
    its plain Python attributes stay static), the function of a
    transform called in traced code (`jax.value_and_grad(loss)(params, flag)` follows `flag`
    into `loss`, and from there through `model.apply`), and the functions a library traces
    when it runs them (numpyro models, blackjax log densities, jaxopt objectives, diffrax
    vector fields: `jaxfacts.TRACING_CALLS`), and the module functions traced code calls with
    traced arguments, also when they are decorated with a transform that passes the arguments
    on position for position (`@partial(jax.vmap, in_axes=(0, None))`, `@jax.grad`:
    `jaxfacts.SIGNATURE_PRESERVING_TRANSFORMS`; vmap passes an unmapped tracer on as it is),
    and the constructors of this module's classes that traced code calls with traced
    arguments (`Interval(low, high)` runs `__init__`, `Scale.from_factors(f)` the classmethod,
    a dataclass or equinox Module without `__init__` its `__post_init__` / `__check_init__`
    with the fields filled from tracers traced: `jaxfacts.VALIDATION_HOOKS`). An object of
    such a class built in traced code from traced values holds tracers in the attributes its
    `__init__` stores them in: its methods (`schedule.learning_rate()`), its properties
    (`prob.is_balanced`) and the functions it is handed to (`Sinkhorn()(prob)`) read them
    traced (ott#388). An entry of a dict the trace writes a traced value into (`params[key] =
    params[key].at[i].set(v)`) is traced when read (jaxley PR 610: an `assert` on
    `np.min(params["axial_diffusion"])` raises), while entries of records whose only traced
    value sits under another key stay concrete (`override["key"]`). A helper flag
    that every call passes as the same constant (`simplify(op, approx=False)`) decides `and` /
    `or` before a traced operand is reached, and a helper's `if runtime_validate:` is decided
    by the literal the traced call passes (timemachine 5b8b305). A pytree state fed back through
    the jitted step keeps the class it starts as, and a method that rebuilds its own class
    (`type(self)(...)`, `self.replace(...)`) returns an instance whose fields are traced the
    same way: `state = state.merge(batch)` then `state.compute()` (kauldron 0e4c332). A field
    holding another pytree dataclass of the module is a subtree, not a leaf: its static fields
    stay Python values (`data.core.device`, crazyflow PR 56). Uses in the body of a loop whose
    `range` bound raises are never reached: the range is the one finding.
    A parameter with a default is traced when a call passes it (also a call of a jitted method
    with a static `self` on an instance, `model.run_from_state(..., output_averages=False)`:
    jax-gcm 0c65af4; also a keyword a `functools.partial` of the jitted function binds, which
    every call of the partial passes: `partial(l1_loss, training=True)`, egnn-jax 8d9332c;
    a flag the jitted function hands a helper unchanged is named with the
    advice to mark it static there, in the jitted function's spec); a call through a name bound to
    one of several jits (`step_func = eval_step if test else train_step`: evojax PR #62) is a
    call of each, and a value that is only ever None (a caller's parameter forwarded with its
    None default) is an empty pytree, not a tracer (`fixtures/trace_misuse/flag_through_*`).
    The children `tree_flatten` returns in a `@register_pytree_node_class` class of the module
    are leaves: a parameter given instances of it holds tracers there, and its properties read
    them traced (`cosmo.k` of jax_cosmo PR #84); its aux data stays a Python value. Arguments
    forwarded with `*state` from a jitted function's own `*state` are tracers in the helper
    (dcegm PR #167). One finding per function: tracing stops at its first Python test on a
    tracer, and the others, which raise in turn once it is fixed, are listed with it (pgx
    PR #42; `fixtures/trace_misuse/python_tests_in_turn_one_finding.py`). A function a factory
    of the module returns (`learning_rate_fn = make_lr_fn(config)`), called in traced code with
    a traced argument, is followed like a helper (scenic da0a6a3), and so is `jax.jit(f)` of a
    bare `@jax.custom_jvp` / `@jax.custom_vjp` def, whose body jit traces with the arguments
    (pytzer 93b0950; `jaxfacts.ARGUMENT_KEEPING_DECORATORS`). A subclass of a pytree class of the
    module is one too (`GaussianMorphology(ProfileMorphology)`, `ProfileMorphology(eqx.Module)`:
    scarlet2 baf4167), and a field annotated `jnp.array`, `Optional[jax.Array]`, `jax.Array |
    None` or `(None, jnp.array)` holds an array. Under a plain `jax.jit` (not `eqx.filter_jit`)
    every field of an equinox Module not marked static is a traced leaf, so a method called on
    a traced Module parameter reads them traced (`jax.jit(lambda y: y.normalize())`,
    jaxoplanet #234); a `str` field makes the call raise instead (JIT807), and a field
    annotated as a container (`data: dict[...]`) has a Python truth value, only its items are
    traced.
    Under `jax.grad` alone the tracers carry their values, and these work.
    Also a jitted function that recurses through a `lax.cond` branch with no Python condition
    of its own: cond traces both branches whatever the predicate, so the recursion never stops
    at trace time (measured: IndexError once the slice is empty, or RecursionError).

    ## Why is this bad?
    Under `jax.jit` the arguments are abstract tracers with no value, so Python cannot decide
    which branch to take. Measured on jax 0.10.2 (CPU): `if x > 0:`, `while x < 3:`,
    `assert x > 0`, `x and 1`, `not x`, `0 < x < 3` and `bool(x)` all raise
    `TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].`
    (a subclass of `ConcretizationTypeError`) on the first call. On a traced array of more
    than one element (`if x > 0` for `x` of shape `(3,)`) Python's own `ValueError` ("The
    truth value of an array with more than one element is ambiguous") comes first. The
    same holds for the `and` a chained comparison makes outside a test (`jnp.where(0. < x <
    1., ...)`), `any()` / `all()` of traced elements and `x in (a, b)`.

    ## Fix safety
    `jnp.where(c, a, b)` evaluates both branches (fine for cheap, side-effect-free branches);
    `jax.lax.cond` / `lax.while_loop` keep one branch but need both to return the same shapes.
    Marking the argument static is right only for Python values (flags, sizes): each distinct
    value then compiles once.
    """

    code = "JIT801"
    name = "python-control-flow-on-tracer"
    summary = "Python control flow on a traced value raises TracerBoolConversionError under jit"
    # code that lax.scan and friends trace outside jit, also a solver picked by name
    prefilter_names = TRACING_CALL_NAMES | CHOOSABLE_TRACING_MODULES
    prefilter_methods = TRACING_METHODS  # self.param(name, init_fn): flax traces init_fn in apply
    prefilter_transforms = TRACING_TRANSFORM_NAMES  # jax.vmap(f) where f does a Python-value operation
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def relu(x):
            if x > 0:
                return x
            return jnp.zeros_like(x)
        """,
        """
        import jax

        @jax.jit
        def step(x, training):
            return x * 0.5 if training else x
        """,
        """
        import jax
        import jax.numpy as jnp

        def halve(x):
            return descend(x / 2.0)

        @jax.jit
        def descend(x):
            return jax.lax.cond(x.sum() > 1.0, halve, jnp.zeros_like, x)
        """,
    ]
    VALID = [
        """
        import jax

        @jax.jit
        def total(x):
            return x[0] + total(x[1:]) if len(x) > 1 else x[0]
        """,
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def relu(x):
            return jnp.where(x > 0, x, 0.0)
        """,
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnames="training")
        def step(x, training):
            if x.ndim == 2 and training:
                return x * 0.5
            return x
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        # One finding per function: tracing stops at its first Python test on a tracer, and
        # the others raise in turn once that one is fixed (listed with it, not as findings of
        # their own: the fix is one decision for the function).
        by_function: dict[int, list] = {}
        for use in tracer_uses(ctx):
            if use.kind == "bool" and not reads_shifted_meant_param(ctx, use.node):  # JIT709's
                by_function.setdefault(id(use.function) if use.function is not None else id(use), []).append(use)
        for uses in by_function.values():
            if len(uses) > 1:  # in source order
                order = {id(node): index for index, node in enumerate(iter_nodes(uses[0].function))}
                uses.sort(key=lambda u: order.get(id(u.node), len(order)))
            first, rest = uses[0], uses[1:]
            message = first.message
            if rest:
                shown = ", ".join(f"`{_src(u.node)}`" for u in rest[:3]) + (", ..." if len(rest) > 3 else "")
                many = len(rest) > 1
                where = f"`{first.function.name.value}`" if isinstance(first.function, cst.FunctionDef) \
                    else "the same function"
                message += (f"; {len(rest)} more Python test{'s' if many else ''} on traced values in "
                            f"{where} raise{'' if many else 's'} in turn ({shown})")
            yield Violation(first.node, message, related=first.related + tuple(
                (u.node, "raises too, once the first is fixed") for u in rest))
