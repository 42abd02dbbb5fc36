from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import live_applications, class_methods
from jitlint.rules._jitted import jitted_functions
from jitlint.jaxfacts import NNX_GRAPH_TRANSFORMS
from jitlint.rules._nnx import NNX_JIT, PLAIN_JITS, closed_over_updates, creates_nnx_object, graph_transform, in_place_updates
from jitlint.rules._stale import NNX_UPDATED, stale_reads


class JitClosesOverNnxModule(Rule):
    """
    ## What it does
    Flags a jitted function (`nnx.jit` or `jax.jit`) that reads a global (or enclosing
    function's) Flax NNX module or optimizer instead of taking it as an argument, when the
    program updates that object between calls: trains it with `optimizer.update(model, grads)`,
    passes it to an `nnx.jit` train step, `nnx.update`s it, or assigns its variables. Also a
    jitted function (`nnx.jit` or `jax.jit`) that updates such an outer object itself (`counter.count.value += 1`,
    `optimizer.update(model, grads)` on a global, or on `self.optimizer` from a function defined
    in a method), or hands it to an NNX transform (`nnx.value_and_grad(loss_fn)(self.model,
    x, y)`), and `nnx.jit(counter)` of a module instance whose `__call__` updates `self`.
    Calling a layer whose call updates its own state counts as an update
    (`jaxfacts.NNX_SELF_UPDATING_LAYERS`: `nnx.Dropout`'s RNG stream unless `deterministic=True`,
    `nnx.BatchNorm`'s running statistics unless `use_running_average=True`), also through a
    module of this file whose `__init__` builds one, unless the program calls `.eval()` on it.

    ## Why is this bad?
    A module read from outside is not an input of the trace: its weights are baked into the
    compiled code as constants at the first call. Measured with flax 0.12.8, jax 0.10.2: an
    `@nnx.jit def predict(x): return model(x)` called before 20 training steps returns, after
    them, exactly its first output (0.0710) while `model(x)` gives 3.7e-09; `@jax.jit` behaves
    the same. It also embeds every weight in the program, which makes compiling slow for
    large models. Updating the closed-over object inside the trace raises at the first call
    (flax 0.12.8): `nnx.jit(counter)()` with `self.count.value += 1` in `__call__`
    (flax#3997) and `@nnx.jit def step(): counter.count.value += 1` raise TraceContextError;
    `optimizer.update(model, grads)` on a global optimizer and model raises ValueError, under
    `jax.jit` too (`Cannot extract graph node from different trace level`), and so does a
    `jax.jit` closure built in `__init__` that runs `self.optimizer.update(self.model, grads)`
    (flax#4695); a `jax.jit` closure of a method writing `self.counter.count.value` raises
    TraceContextError. So does a jitted function calling a global `nnx.Dropout(0.5, rngs=...)`
    or a model holding an `nnx.BatchNorm` in training mode (flax#4539); `deterministic=True`,
    `use_running_average=True` or `model.eval()` run. Handing an outer module to an NNX
    transform inside the jit (`nnx.value_and_grad(loss_fn)(self.model, x, y)`, nnx.grad, vmap,
    remat, jit: `jaxfacts.NNX_GRAPH_TRANSFORMS`, tested) raises too, even with the optimizer
    passed as an argument: ValueError (`Cannot extract graph node from different trace
    level`) for grad and vmap, TraceContextError for remat and jit.

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
        yield from _updates_inside(ctx)
        for stale in stale_reads(ctx):
            if stale.how != NNX_UPDATED:
                continue
            function = stale.function_name
            yield Violation(stale.node, (
                f"jitted `{function}` reads the NNX object `{stale.name}`, which is updated in "
                f"place between its calls: its weights are baked in at the first trace, so later "
                f"calls silently use the old ones; pass `{stale.name}` as an argument"))


def _updates_inside(ctx: FileContext) -> Iterator[Violation]:
    """``nnx.jit`` of a function that updates in place an NNX object it reads from outside
    (``counter.count.value += 1``, ``optimizer.update(model, grads)`` with either global), and
    ``nnx.jit(counter)`` of a module instance whose ``__call__`` updates ``self``: the object
    is closed over, not an input, and NNX refuses the write (flax 0.12.8: TraceContextError, or
    ValueError for an optimizer), under nnx.jit and jax.jit alike."""
    for func, entry in jitted_functions(ctx).items():
        apps = [app for app in entry.apps if app.jit.qualname == NNX_JIT or app.jit.qualname in PLAIN_JITS]
        if not apps or not isinstance(func, cst.FunctionDef):
            continue
        jit = "nnx.jit" if apps[0].jit.qualname == NNX_JIT else apps[0].jit.display
        by_update: dict[int, list[str]] = {}
        updates = closed_over_updates(func, ctx.model)
        for name, node in updates.items():
            by_update.setdefault(id(node), []).append(name)
        for name, node in updates.items():
            names = by_update.pop(id(node), None)
            if names is None:
                continue  # one finding per update, naming every object it updates
            them = " and ".join(f"`{n}`" for n in names)
            transform = graph_transform(node, ctx.model, ctx.model.scope_of[func])
            if transform is not None:
                short = transform.replace("flax.nnx.", "nnx.")
                yield Violation(node, (
                    f"`{func.name.value}`, under {jit}, hands {them}, which it reads from outside, to "
                    f"`{short}`: the module is closed over, not an input of the trace, so the "
                    f"transform cannot split it and raises {NNX_GRAPH_TRANSFORMS[transform]} at the "
                    f"first call; pass {them} as {'arguments' if len(names) > 1 else 'an argument'}"
                    f"{'' if apps[0].jit.qualname == NNX_JIT else ' and use nnx.jit'}"),
                    related=((apps[0].anchor, f"the {jit}"),))
                continue
            yield Violation(node, (
                f"`{func.name.value}`, under {jit}, updates the NNX object{'s' if len(names) > 1 else ''} "
                f"{them} it reads from outside: {'they are' if len(names) > 1 else 'it is'} closed "
                f"over, not {'inputs' if len(names) > 1 else 'an input'} of the trace, so NNX "
                f"raises at the first call "
                f"(TraceContextError, or ValueError for an optimizer's update); pass "
                f"{them} as {'arguments' if len(names) > 1 else 'an argument'}"
                f"{'' if apps[0].jit.qualname == NNX_JIT else ' and use nnx.jit'}"),
                related=((apps[0].anchor, f"the {jit}"),))
    shown: set[int] = set()
    for app in live_applications(ctx):
        if app.jit.qualname != NNX_JIT or app.call is None or not isinstance(app.target, cst.Name):
            continue
        updated = _instance_call_updates(ctx, app.target, app.frame)
        if updated is not None and id(updated) not in shown:
            shown.add(id(updated))  # shown at the update, once however often it is jitted
            name = app.target.value
            yield Violation(updated, (
                f"nnx.jit(`{name}`) jits this `__call__` with `{name}` closed over, not passed, "
                f"and it updates `{name}` in place: NNX raises TraceContextError at the first "
                f"call; jit a function of the module (`nnx.jit(lambda m: m())({name})`, or "
                f"`@nnx.jit def step(model): ...`)"),
                related=((app.call, "the nnx.jit of the instance"),))


def _instance_call_updates(ctx: FileContext, target: cst.Name, frame) -> Optional[cst.CSTNode]:
    """The in-place update of ``self`` in ``__call__`` of the NNX module class (of this module)
    that ``target`` is an instance of."""
    model = ctx.model
    if not creates_nnx_object(target, frame.scope, frame, model):
        return None
    origin = model.value_origin(target, frame.scope, frame)
    call = origin[0] if origin is not None else None
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name):
        return None
    binding = model.single_binding(call.func.value, origin[1])
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
        return None
    method = class_methods(binding.node).get("__call__")
    params = method.params.params if method is not None else ()
    if not params:
        return None
    receiver = params[0].name.value
    return in_place_updates(method, model, frozenset({receiver})).get(receiver)
