# source: https://github.com/climate-analytics-lab/jax-gcm/commit/5aac6d3482956754ad913804696eefc1ea2a1294
# expect: jit-in-loop-or-body at line 95
# runtime: COMPILES 3 CALLS 3
# why: Model.unroll wraps a freshly built integrate closure in jax.jit on every call, so each unroll (e.g. each resume of the simulation) traces and compiles the whole trajectory again.
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


import jax
import jax.numpy as jnp  # scaffolding
from typing import Any  # scaffolding


# scaffolding: dinosaur.time_integration.trajectory_from_step (and repeated), copied in short
def repeated(fn, steps, scan_fn=jax.lax.scan):  # scaffolding
    def f_repeated(x_initial):  # scaffolding
        g = lambda x, _: (fn(x), None)  # scaffolding
        x_final, _ = scan_fn(g, x_initial, xs=None, length=steps)  # scaffolding
        return x_final  # scaffolding
    return f_repeated  # scaffolding


def trajectory_from_step(step_fn, outer_steps, inner_steps, *, start_with_input=False,  # scaffolding
                         post_process_fn=lambda x: x, outer_scan_fn=jax.lax.scan, inner_scan_fn=jax.lax.scan):
  if inner_steps != 1:
    step_fn = repeated(step_fn, inner_steps, inner_scan_fn)

  def step(carry_in, _):
    carry_out = step_fn(carry_in)
    frame = carry_in if start_with_input else carry_out
    return carry_out, post_process_fn(frame)

  def multistep(x):
    return outer_scan_fn(step, x, xs=None, length=outer_steps)

  return multistep


class _Physics:  # scaffolding
    write_output = True


class Model:
    # scaffolding: a tiny diffusion step instead of the primitive equations and physics
    def __init__(self):  # scaffolding
        self.output_averages = False
        self.physics = _Physics()
        self.outer_steps = 4
        self.inner_steps = 5

    def step_fn(self, state):  # scaffolding
        return state + 0.1 * (jnp.roll(state, 1) - 2 * state + jnp.roll(state, -1))

    def _post_process(self, state):  # scaffolding
        return {"mean": state.mean(), "max": state.max()}

    def _get_integrate_fn(self, step_fn, outer_steps, inner_steps, **kwargs):
        trajectory_fn = trajectory_from_step  # scaffolding: averaged_trajectory_from_step is not used (output_averages=False)

        def _integrate_fn(state):
            integrate_fn = jax.jit(trajectory_fn(
                step_fn if self.output_averages else jax.checkpoint(step_fn), # FIXME: inability to checkpoint when using averages
                outer_steps=outer_steps,
                inner_steps=inner_steps,
                **kwargs,
                post_process_fn=self._post_process if self.physics.write_output else lambda x: x
            ))

            final_state, raw_predictions = integrate_fn(state)  # scaffolding: the output_averages=False branch
            predictions = raw_predictions  # scaffolding: write_output=True, already post-processed

            return final_state, predictions
        
        return _integrate_fn

    def unroll(self, state):
        integrate = jax.jit(self._get_integrate_fn(
            self.step_fn,
            outer_steps=self.outer_steps,
            inner_steps=self.inner_steps,
            start_with_input=True,
        ))
        return integrate(state)


model = Model()  # scaffolding
state = jnp.sin(jnp.linspace(0, 6.28, 64))  # scaffolding
for chunk in range(3):  # scaffolding: three consecutive unrolls, as when a run is resumed
    state, predictions = model.unroll(state)  # scaffolding
_report({"jit(_integrate_fn)", "jit(multistep)"}, 3)  # scaffolding
