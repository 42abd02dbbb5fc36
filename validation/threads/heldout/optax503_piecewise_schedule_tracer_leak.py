# source: https://github.com/google-deepmind/optax/issues/503
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: Reported on optax of early 2023 (piecewise_interpolate_schedule built jnp constants inside the jitted TrainState.create, leaking tracers through the schedule's closure); fixed by optax PR #504, so on optax 0.2.8 both jitted examples run under jax.check_tracer_leaks and each compiles once.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
import time  # scaffolding: used below, not imported in the post
import jax
import optax
from flax.training.train_state import TrainState
from jax import numpy as jnp


@jax.jit
def ok_example() -> TrainState:
    return TrainState.create(
        apply_fn=lambda *_: None,
        params=jnp.zeros(5),
        tx=optax.scale_by_schedule(
            optax.linear_schedule(init_value=0.0, end_value=1.0, transition_steps=100)
        ),
    )


@jax.jit
def not_ok_example() -> TrainState:
    return TrainState.create(
        apply_fn=lambda *_: None,
        params=jnp.zeros(5),
        tx=optax.scale_by_schedule(
            optax.piecewise_interpolate_schedule(
                "linear", init_value=1.0, boundaries_and_scales={10: 2.0}
            )
        ),
    )


try:  # scaffolding
    with jax.check_tracer_leaks():
        ok_example()
        print("First example OK!")

    time.sleep(1.0)

    with jax.check_tracer_leaks():
        not_ok_example()  # Fails.
        print("Second example OK!")
    _report({"jit(ok_example)", "jit(not_ok_example)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
