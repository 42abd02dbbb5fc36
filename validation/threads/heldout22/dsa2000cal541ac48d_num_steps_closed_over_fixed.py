# source: https://github.com/Joshuaalbert/DSA2000-Cal/commit/541ac48d74c1247b4611e554465a573600e789fc
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The commit's fix: num_steps is closed over when the process function is built, so the AOT-compiled executable takes only the traced arguments; one compile, one run.
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
from typing import NamedTuple

import jax
import jax.numpy as jnp


class ApplyReturn(NamedTuple):  # scaffolding: stand-ins for dsa2000_cal's ctx.transform_with_state
    fn_val: jax.Array
    states: dict


class InitReturn(NamedTuple):  # scaffolding
    params: dict
    states: dict


class TransformedWithStateFn:  # scaffolding: a one-step DAG that updates a gain state and returns visibilities
    def init(self, key):
        return InitReturn(params={"gain": jnp.ones(8)}, states={"phase": jnp.zeros(8)})

    def apply(self, params, states, key):
        phase = states["phase"] + 0.1 * jax.random.normal(key, (8,))
        vis = params["gain"] * jnp.exp(1j * phase)
        return ApplyReturn(fn_val=vis, states={"phase": phase})


def build_process_scan(execute_dag_transformed: TransformedWithStateFn, num_steps: int):
    def run_process(key, params, init_states):
        class Carry(NamedTuple):
            states: dict

        class XType(NamedTuple):
            key: jax.Array

        def body(carry: Carry, x: XType):
            apply_return = execute_dag_transformed.apply(params, carry.states, x.key)
            print(apply_return)
            return Carry(states=apply_return.states), apply_return.fn_val

        carry, keep = jax.lax.scan(
            body,
            Carry(states=init_states),
            XType(key=jax.random.split(key, num_steps))
        )
        return keep

    return run_process


def process_start(key):  # scaffolding: process_start cut to the jit / lower / compile / run lines
    execute_dag_transformed = TransformedWithStateFn()
    run_process = build_process_scan(execute_dag_transformed, num_steps=1)

    run_process_jit = jax.jit(run_process, donate_argnums=(0, 1, 2))

    run_key, init_key = jax.random.split(key, 2)
    init = execute_dag_transformed.init(init_key)
    run_process_jit_compiled = run_process_jit.lower(run_key, init.params, init.states).compile()
    final_keep = run_process_jit_compiled(run_key, init.params, init.states)
    return final_keep


try:  # scaffolding
    out = process_start(jax.random.PRNGKey(0))  # scaffolding
    _report({"jit(run_process)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
