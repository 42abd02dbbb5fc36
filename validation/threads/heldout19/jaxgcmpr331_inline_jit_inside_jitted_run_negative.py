# source: https://github.com/climate-analytics-lab/jax-gcm/pull/331
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the inline jax.jit(trajectory_fn(...)) is created inside run_from_state, which is itself jitted with self static, so it is only traced as part of the outer function: run_from_state compiles once for its 2 calls.
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

from functools import partial  # scaffolding
import jax
import jax.numpy as jnp  # scaffolding


def trajectory_from_step(step_fn, outer_steps, inner_steps, start_with_input=False, post_process_fn=lambda s: s):  # scaffolding: stand-in for dinosaur.time_integration.trajectory_from_step
    def inner(x, _):
        return step_fn(x), None

    def outer(x, _):
        x, _ = jax.lax.scan(inner, x, None, length=inner_steps)
        return x, post_process_fn(x)

    def integrate(x):
        return jax.lax.scan(outer, x, None, length=outer_steps)

    return integrate


class Model:  # scaffolding: cut-down jcm.model.Model
    dt_days = 0.5

    def _get_step_fn_factory(self, forcing):  # scaffolding
        return lambda: (lambda state: state + self.dt_days * (forcing - state))

    def _post_process(self, state, forcing, output_averages):  # scaffolding
        return state.mean()

    def _get_integrate_fn(self, step_fn, outer_steps, inner_steps, post_process_fn, output_averages, **kwargs):
        trajectory_fn = trajectory_from_step

        def _integrate_fn(state):
            integrate_fn = jax.jit(trajectory_fn(
                step_fn=step_fn,
                outer_steps=outer_steps,
                inner_steps=inner_steps,
                **kwargs,
                post_process_fn=post_process_fn
            ))
            return integrate_fn(state)

        return _integrate_fn

    @partial(jax.jit, static_argnums=(0, 3, 4, 5)) # Note: if model fields assumed to be static are changed, the changes will not be picked up here
    def run_from_state(self,
                       initial_state,
                       forcing,
                       save_interval=10.0,
                       total_time=120.0,
                       output_averages=False,
    ):
        step_fn_factory = self._get_step_fn_factory(forcing)
        step_fn = jax.checkpoint(step_fn_factory())

        inner_steps = int(save_interval / self.dt_days)
        outer_steps = int(total_time / save_interval)

        integrate = self._get_integrate_fn(
            step_fn,
            outer_steps=outer_steps,
            inner_steps=inner_steps,
            start_with_input=True,
            post_process_fn=lambda state: self._post_process(state, forcing, output_averages),
            output_averages=output_averages
        )

        final_modal_state, predictions = integrate(initial_state)
        return final_modal_state, predictions


model = Model()  # scaffolding
x0 = jnp.zeros(8)  # scaffolding
forcing = jnp.ones(8)  # scaffolding
for _ in range(2):  # scaffolding
    model.run_from_state(x0, forcing, 10.0, 120.0, False)  # scaffolding
_report({"jit(run_from_state)", "jit(integrate)"}, 2)  # scaffolding
