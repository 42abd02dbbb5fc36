from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import calling_context
from jitlint.rules._jitted import jitted_functions
from jitlint.rules._nnx import NNX_JIT, ModeSwitch, holds_mode_layers, mode_switches, trains_nnx

VIEW_FIX = ("switch modes outside the jitted functions (`model.train()` before the training loop, "
            "`model.eval()` before evaluating), or evaluate an `nnx.view(model, deterministic=True, "
            "use_running_average=True)` made once")


class NnxModeSwitchInsideJit(Rule):
    """
    ## What it does
    Flags `model.eval()` called inside an `nnx.jit` function on a module it takes as an
    argument (directly or through a def nested in it, `loss_fn(model)`) when the program makes
    the module alternate between modes across jitted calls: another `nnx.jit` function switches
    it back with `.train()` inside its own trace, or nothing switches it back and another
    `nnx.jit` function trains it (`nnx.grad` / `nnx.value_and_grad`). Only for modules that hold
    a layer with a mode (`nnx.Dropout`, `nnx.BatchNorm`, `nnx.MultiHeadAttention`:
    `jaxfacts.NNX_MODE_LAYERS`), or modules built elsewhere.

    ## Why is this bad?
    `eval()` / `train()` set static attributes (`deterministic`, `use_running_average`) of the
    module's layers. They are part of the graph definition that `nnx.jit` keys its cache on, and
    a switch made inside `nnx.jit` persists after the call. So each jitted function is called
    with the module in the mode the other one left, and compiles again for it. Measured with
    flax 0.12.8, jax 0.10.2 (`fixtures/changing_statics/nnx_mode_switch_inside_jit.py`): a
    `train_step` calling `model.train()` and an `eval_step` calling `model.eval()`, four epochs
    of three training and two evaluation steps, compile 2 times each; switched outside, once
    each. With only `eval_step` switching, the model stays in eval mode after the first
    evaluation: `train_step` compiles again and trains with dropout off
    (`model.dropout.deterministic` is True during training).

    ## Fix safety
    Switch modes outside the jitted functions, where the training and evaluation loops start,
    or evaluate an `nnx.view(model, deterministic=True, use_running_average=True)` made once.
    Safe: the same computation, one compile per function, and training keeps dropout on.
    """

    code = "JIT405"
    name = "nnx-mode-switch-inside-jit"
    summary = "model.eval()/train() inside nnx.jit persists after the call: the other jitted steps recompile"

    INVALID = [
        """
        import optax
        from flax import nnx

        class Model(nnx.Module):
            def __init__(self, rngs):
                self.linear = nnx.Linear(4, 4, rngs=rngs)
                self.dropout = nnx.Dropout(0.5, rngs=rngs)

            def __call__(self, x):
                return self.dropout(self.linear(x))

        @nnx.jit
        def train_step(model, optimizer, x):
            model.train()
            grads = nnx.grad(lambda m: m(x).sum())(model)
            optimizer.update(model, grads)

        @nnx.jit
        def eval_step(model, x):
            model.eval()
            return model(x).sum()
        """,
    ]
    VALID = [
        """
        from flax import nnx

        @nnx.jit
        def train_step(model, optimizer, x):
            grads = nnx.grad(lambda m: m(x).sum())(model)
            optimizer.update(model, grads)

        @nnx.jit
        def eval_step(model, x):
            return model(x).sum()

        def fit(model, optimizer, batches):
            for x in batches:
                model.train()
                train_step(model, optimizer, x)
                model.eval()
                eval_step(model, x)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        switches = mode_switches(ctx)
        if not any(s.jitted is not None for s in switches) or not holds_mode_layers(ctx.model):
            return
        nnx_jitted = [func for func, entry in jitted_functions(ctx).items() if isinstance(func, cst.FunctionDef)
                      and any(app.jit.qualname == NNX_JIT for app in entry.apps)]
        inside = [s for s in switches if s.jitted is not None]
        outside = [s for s in switches if s.jitted is None]
        for switch in inside:
            name = switch.jitted.name.value
            if switch.mode == "train":
                back = next((s for s in outside if s.mode == "eval"), None)
                if back is not None and not any(s.mode == "eval" for s in inside):
                    yield _finding(ctx, switch, (
                        f"`{name}`, under nnx.jit, switches `{switch.receiver}` to train mode inside the "
                        f"trace while `{_src(back.call)}` switches it to eval mode outside: `{name}` is "
                        f"called in eval mode after each evaluation and compiles once more for it; "
                        f"{VIEW_FIX}"),
                        related=((back.call, "the switch to eval mode"),))
                continue
            back = next((s for s in inside if s.mode == "train" and s.jitted is not switch.jitted), None)
            if back is not None:
                other = back.jitted.name.value
                yield _finding(ctx, switch, (
                    f"`{name}`, under nnx.jit, switches `{switch.receiver}` to eval mode inside the trace "
                    f"and `{other}` switches it back to train mode inside its own: each switch persists "
                    f"after the call, so each function is called with the module in the other's mode "
                    f"and compiles once more for it; {VIEW_FIX}"),
                    related=((back.call, f"`{other}` switches it to train mode"),))
                continue
            trains = [s for s in switches if s.mode == "train"]
            if not trains and any(s.mode == "eval" for s in outside):
                continue  # switched to eval mode before, outside: the switch inside changes nothing
            trainer = next((func for func in nnx_jitted if func is not switch.jitted and trains_nnx(func, ctx.model)), None)
            if not trains and trainer is not None:
                yield _finding(ctx, switch, (
                    f"`{name}`, under nnx.jit, switches `{switch.receiver}` to eval mode inside the trace; "
                    f"the switch persists after the call and nothing switches it back, so "
                    f"`{trainer.name.value}` then compiles again and trains in eval mode (no dropout, "
                    f"frozen batch statistics); {VIEW_FIX}"),
                    related=((trainer, f"`{trainer.name.value}` trains the module"),))
            elif _called_repeatedly(ctx, switch.jitted):
                first = f"after each `{_src(trains[0].call)}`" if trains else "at its first call"
                yield _finding(ctx, switch, (
                    f"`{name}`, under nnx.jit, switches `{switch.receiver}` to eval mode inside the trace; "
                    f"the switch persists after the call, so `{name}` gets the module in train mode "
                    f"{first} and in eval mode after it, and compiles for each; {VIEW_FIX}"),
                    related=((trains[0].call, "the switch to train mode"),) if trains else ())


def _finding(ctx: FileContext, switch: ModeSwitch, message: str,
             related: tuple = ()) -> Violation:
    """The finding at the switch; ``--confirm`` counts the compiles where the jitted function
    holding it is called (it compiles once per mode it receives)."""
    context = calling_context(ctx)
    call = next((site.node for site in context.call_sites(switch.jitted)
                 if not context.runs_traced(site.frame)), None)
    if call is None:
        return Violation(switch.call, message, related=related)
    return Violation(switch.call, message, related=(*related, (call, f"`{switch.jitted.name.value}` called here")),
                     repeated_at=call, runs_at_repeat=True)


def _called_repeatedly(ctx: FileContext, function: cst.FunctionDef) -> bool:
    """More than one call of the jitted ``function`` runs: two call sites, or one in a loop or
    in a function called again and again."""
    context = calling_context(ctx)
    sites = context.call_sites(function)
    return len(sites) >= 2 or any(context.site_repeats(site) for site in sites)


def _src(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)
