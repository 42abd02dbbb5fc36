from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._churn import churns
from jitlint.rules._feedback import weak_field_starts, weak_state_starts
from jitlint.walk import source_text as _src


class ChangingDtype(Rule):
    """
    ## What it does
    Flags a call of a jitted function inside a loop whose (non-static) argument changes dtype or
    weak type between iterations: the loop variable of a literal list mixing Python `int`,
    `float`, `bool` and `None` values (or several dtypes used as `dtype=` / `.astype`), also stored in an
    attribute in the loop first (`cfg.factor = factor` ... `f(x, cfg.factor)`), a name that starts
    as a Python `int` and becomes a `float` in the loop (`lr = 1` ... `lr = lr / 2`, `eps =
    max(eps * 0.99, 0.05)`: the Python number type is followed through arithmetic, `max`/`min`,
    names and parameters), or `1 if cond else 0.5`. An attribute passed to the jit
    (`self.select_action(q, self.epsilon, key)`) that one method of its class sets to a Python
    int (`self.epsilon = self.init_epsilon` of a constructor given `1`) and another makes a
    float (`self.epsilon *= self.eps_decay_rate` with a float rate) is a weak int32 before the
    change and a weak float32 after it: two compiles (junoJaxRL's DQN agent). Outside loops too: two calls in one block that give the same argument
    a Python scalar and then a Python scalar of the other kind (`f(x, 2)` then `f(x, 0.5)`), or
    a Python scalar and a strongly typed array (`np.float32(0.)`, a `dtype=`, `.astype`, or the
    result of a jitted function whose returned value combines one: `y = f(0.)` then `f(y)`,
    jax issue 4274; in a loop, also an array read from the jitted result: `factor = out.sum() / 4`).
    A weakly typed array made before a loop (`s = jnp.full((M,), s_init)` of a Python number, or
    `jnp.asarray(0.5)`, no dtype: `jaxfacts.WEAK_SCALAR_ARRAYS`, tested) that the loop feeds
    back through a jitted function returning it strongly typed (its result mixes in an array
    every call passes strongly typed, followed through names, `jnp` functions and arithmetic,
    or comes from `optax.apply_updates`, which casts each leaf to its parameter's dtype:
    glaunti's `dt = jnp.array(0.0)`, 2 compiles; `jaxfacts.LEAF_CASTING_UPDATES`)
    is reported where it is made, where the dtype goes (QuantEcon kesten PR 118, inventory PR
    313), followed through names; a strongly typed constructor (`jnp.ones(())`,
    `jaxfacts.STRONG_ARRAY_CONSTRUCTORS`) and `jnp.array(1.0)` at the same argument (equinox#817).
    And an optax state fed back through a jitted step (`w, state = step(w, state)` in a loop)
    whose first value is the `init` state of an optimizer that starts it weakly typed
    (`optax.lbfgs`, the line searches: `jaxfacts.WEAK_STATE_OPTIMIZERS`, also inside
    `optax.chain`). And a pytree state (a NamedTuple or pytree dataclass of the module, or a dict
    with string keys: `{**state, "t": ...}`, or a dict the step updates in place and returns,
    `state["loss_avg"] = state["loss_avg"] * 0.9 + loss`: deepmd-jax, 2 compiles in 5 steps;
    each start of an `if`/`else` is judged) fed back
    through a jitted step whose first value holds a weakly typed scalar in a field (a Python
    `int`/`float` default or argument, or `jnp.asarray(0.0)` with no dtype) that the step stores
    back strongly typed: combined with an explicit dtype (`t + jnp.float32(dt)`), a comparison's
    sum, a `jax.random` draw or a field that starts strongly typed. Adding a Python number keeps
    it weak (`step=state.step + 1` is silent), and so does a bool array: `count * (1 - done)`
    is a weak int32. The state may be built by a function or method that returns it
    (an environment wrapper's `reset`, also under `jax.vmap`), sit inside what is fed back
    (`runner_state = (params, env_state, timestep)`, `runner_state = out["runner_state"]`), and
    be stored back where the trace builds the class again (the wrapper's `step`, run by a
    `lax.scan` in the jitted learner): an episode return reset to `0.0` and stored as
    `(ret + reward) * (1 - done)` (Stoix PR #100, Mava PR #906).
    Across calls anywhere in the module: one jitted function whose same argument is a pytree
    (a NamedTuple or pytree dataclass of the module, or what a factory def returns) built with a
    leaf of one kind at one call and of another at a later one: `Prices()` of float defaults,
    then `Prices(r=r, w=w)` of arrays; `create_model()` with `c=5.0`, then `create_model(c=c)`
    over `c_vals = 1, 2, 3` or a `jnp.linspace`. The argument is followed through the defs that
    pass their parameter on (also a wrapper that counts calls in front of the jitted def kept
    under another name), loop elements of an array are strongly typed, a parameter that one
    caller fills with them (a capital grid) is strongly typed there even where another caller
    passes Python floats (a fixed-point search), and the finding sits where the listed values
    are written (or at the construction), once per argument (QuantEcon Aiyagari, McCall and IFP
    lectures). A Python int start (`status = 0`) fed back from a step
    that returns it strongly typed (`.astype(jnp.int32)`, per returned element; or a float32
    array, `w -= lr * w_grad` of a NumPy or `jnp.arange` input, where the advice is a float32
    start: `w, b = 1, 1` fed to `jit(update)`, 2 compiles; started as `jnp.float32(1.0)`, 1)
    is reported where it starts. Two calls in one body, before and in a loop, with a weakly typed array
    and then a strongly typed one count too, also for an equinox Module whose `__call__` is a
    `filter_jit` (LINX issue 13). A Python float carried into the loop and kept one there
    (`eps *= 1.01`) but set in it to a NumPy value (`eps = np.exp(np.mean(np.log(eps_list)))`,
    `jaxfacts.NUMPY_VALUE_FUNCTIONS`) counts too: an HMC tutorial's adaptive step size, 2
    compiles; converted with `float(...)`, 1. A Python scalar and then an array of known rank, `f(1)` then
    `f(jnp.ones(2))`, are two programs whatever the dtypes (a scalar and a vector) and stay
    silent.

    ## Why is this bad?
    jit compiles once per distinct dtype and weak type. Python ints are weak `int32`, Python
    floats weak `float32`, bools `bool`. Measured on jax 0.10.2 (CPU): alternating int/float
    arguments compile 2 times in 5 calls; the same shape in 5 dtypes compiles 5 times; the
    attribute set from `(2, 0.5, 3, 1.5)` compiles twice in 4 calls; the
    10 arguments 1, 1.0, jnp.float32, np.float32, jnp.array(1.), True, np.float64, jnp.int32,
    2, 3.0 compile 5 times. Python ints 0..4 alone compile once; `None, 0, 1, 1.0, 0.5` compile
    3 times (DESC#1781). An epsilon started as `1` and decayed with `max(epsilon * 0.99, 0.05)`
    compiles `select_action` twice in 10 calls (once started as `1.0`); the agent whose
    `self.epsilon` starts as the constructor's `1` and is decayed with `*= 0.99` twice in 5
    (once given `1.0`). `f(0.0)` then `f(f(0.0))` with
    `f = lambda x: x + np.float32(0.5)` compiles twice; with `np.float32(0.0)` first, or with a
    body of weak values only (`x / 2`: the result stays weakly typed), once. An episode-statistics
    wrapper reset eagerly to `0.0` and stored back as `(ret + reward) * (1 - done)` compiles the
    jitted rollout fed its own output 2 times in 5; reset to `jnp.zeros((), jnp.float32)`, or
    reset inside the jitted function, once. A jitted
    L-BFGS step fed its own state compiles twice in 3 steps (optax 0.2.8), once after
    `jax.tree.map(lambda a: jnp.asarray(a, jnp.result_type(a)), state)` (optax PR #1108). A
    sampler state counting accepted moves from a default of `0` with `accepted += mask.sum()`
    compiles its step 2 times in 5 steps (netket PR #1021), a time starting as
    `jnp.asarray(0.0)` advanced by `jnp.float32(dt)` 2 times in 5 (mujoco#2306); a counter
    advanced by `+ 1` once. A NamedTuple model built with a float default, then over Python
    ints, then over a `jnp.linspace`, compiles its jitted solver 3 times; with floats
    everywhere, once. `Prices()` of float defaults, then prices computed from a `jnp.linspace`
    capital grid and from Python floats, compiles the jitted step 2 times; from a Python int
    and Python floats only, once. An agent state starting at Python `0` fed back through a step returning
    `astype(jnp.int32)` compiles it twice; a counter kept weak (`count + 1`), once.

    ## Fix safety
    Converting once (`jnp.asarray(v, jnp.float32)`, or writing `1.0` instead of `1`) can change
    results where integer arithmetic was intended; check integer-only uses first.
    """

    code = "JIT502"
    calling_context = True
    name = "changing-dtype"
    summary = "jitted function called in a loop with an argument whose dtype or weak type changes"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def scale(x, s):
            return x * s

        for s in [1, 0.5, 2, 0.25]:
            print(scale(jnp.ones(3), s))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def scale(x, s):
            return x * s

        for s in [1.0, 0.5, 2.0, 0.25]:
            print(scale(jnp.ones(3), s))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for churn in churns(ctx):
            if churn.kind == "dtype":
                yield Violation(churn.node, churn.message, churn.related)
        for start in weak_state_starts(ctx):
            fed, init = start.fed, cst.Module([]).code_for_node(start.init)
            yield Violation(fed.arg, (
                f"`{fed.name}` starts as `{init}`, whose {start.optimizer} state holds weakly typed "
                f"scalars, and `{fed.jc.name}` returns them strongly typed: the second call "
                f"compiles `{fed.jc.name}` again; make the initial state strongly typed once "
                f"({fed.name} = jax.tree.map(lambda a: jnp.asarray(a, jnp.result_type(a)), {fed.name}))"),
                related=((start.init, "the weakly typed initial state"),))
        grouped: dict[tuple[int, int], list] = {}
        for weak in weak_field_starts(ctx):  # one finding per construction fed to one call
            grouped.setdefault((id(weak.fed.jc.call), id(weak.made)), []).append(weak)
        for fields in grouped.values():
            weak, fed = fields[0], fields[0].fed
            dtype = "int32" if weak.kind == "int" else "float32"
            literal = weak.start.args[0].value if isinstance(weak.start, cst.Call) else weak.start
            start = f"the Python {weak.kind} `{_src(literal)}`" if literal is weak.start else \
                f"`{_src(weak.start)}` (no dtype, like a Python {weak.kind})"
            field, fixed = (f"{weak.cls}.{weak.field}", f"{weak.field}=") if weak.cls is not None \
                else (f'{fed.name}["{weak.field}"]', f'"{weak.field}": ')
            others = f" (and {', '.join(f'`{w.field}`' for w in fields[1:])}, also weakly typed)" \
                if len(fields) > 1 else ""
            yield Violation(weak.start, (
                f"`{field}` starts as {start}, weakly typed{others}, but `{fed.jc.name}` stores it "
                f"back strongly typed (`{_src(weak.stored)}`) and the loop feeds `{fed.name}` back "
                f"(`{_src(fed.jc.call, 50)}`): the second call compiles `{fed.jc.name}` again; start it "
                f"strongly typed ({fixed}jnp.asarray({_src(literal)}, jnp.{dtype}))"),
                related=((fed.jc.call, "fed back to the jitted step here"),
                         (weak.stored, "stored back strongly typed here")), repeated_at=fed.jc.call,
                runs_at_repeat=True)
